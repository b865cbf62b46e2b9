import Foundation
import SQLiteStoreCore

/// The command line's arguments as the process received them, in bytes.
///
/// `CommandLine.arguments` (and so every option ArgumentParser parses) decodes each argument
/// as UTF-8 and replaces invalid bytes with U+FFFD: a file named `nouv\xE9.sqlite` would come
/// through as `nouv\u{FFFD}.sqlite`, another name, which `store` would then create or report
/// missing. Paths on Linux are bytes, but everything downstream (`FileManager`, SQLite's
/// filename, JSON output) takes text, so `store` refuses such arguments instead.
enum ArgumentEncoding {
    /// The first argument (after the program name) whose bytes are not valid UTF-8, as
    /// (1-based position, its text with the invalid bytes written as `\xNN`).
    static func firstInvalidArgument() -> (position: Int, text: String)? {
        for position in 1..<Int(CommandLine.argc) {
            guard let argument = CommandLine.unsafeArgv[position] else { continue }
            let bytes = Array(UnsafeBufferPointer(start: argument, count: strlen(argument))).map { UInt8(bitPattern: $0) }
            if String(validUTF8: bytes) == nil { return (position, escaped(bytes)) }
        }
        return nil
    }

    /// The bytes as text: ASCII as it is, every other byte as `\xNN`.
    private static func escaped(_ bytes: [UInt8]) -> String {
        bytes.map { $0 < 0x80 ? String(UnicodeScalar($0)) : "\\x" + String($0, radix: 16, uppercase: true) }.joined()
    }
}
