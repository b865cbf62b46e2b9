extension String {
    /// The text `bytes` encode, or `nil` when they are not valid UTF-8.
    ///
    /// The standard library's `String(validating:as:)` needs macOS 15 / iOS 18, above the
    /// core's floor. Decoding replaces each invalid sequence with U+FFFD and leaves valid
    /// UTF-8 byte for byte, so the bytes are valid exactly when the decoded text has them all.
    package init?(validUTF8 bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        guard text.utf8.elementsEqual(bytes) else { return nil }
        self = text
    }
}
