/// A 64-bit hash of a run of words and bytes, for telling whether a row's values changed
/// (`Statement.fingerprint(columns:)`): not for hash tables, so it needs no defence against
/// flooding, only to spread every bit of every word. Each word is mixed into the state by a
/// full-width multiplication folded to 64 bits (wyhash's `mum`), bytes 8 at a time. Seeded
/// once per process, so that no two values known in advance share a fingerprint everywhere.
///
/// A fifth to a half of the cost of `Hasher` (SipHash) for a row of a few columns: reading a
/// million-row index hashed every row with it.
struct RowFingerprint {
    private static let seed = UInt64.random(in: .min ... .max)

    private var state = RowFingerprint.seed
    /// An odd multiplier with bits spread evenly: 2⁶⁴ / φ, the seed's high half mixed in.
    private let multiplier = 0x9E37_79B9_7F4A_7C15 ^ (RowFingerprint.seed & 0xFFFF_FFFF_0000_0000)

    /// Mixes in `word`; the word is mixed into the result too, so that a state equal to it
    /// (a product of zero) does not forget what came before.
    @inline(__always) mutating func combine(_ word: UInt64) {
        let product = (state ^ word).multipliedFullWidth(by: multiplier)
        state = product.high ^ product.low ^ word
    }

    /// Mixes in `bytes`, 8 at a time, the last few zero-padded (the caller mixes in the
    /// count, which tells the padding from zero bytes).
    mutating func combine(bytes: UnsafeRawBufferPointer) {
        var offset = 0
        while offset + 8 <= bytes.count {
            combine(bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            offset += 8
        }
        guard offset < bytes.count else { return }
        var last: UInt64 = 0
        for index in offset..<bytes.count { last |= UInt64(bytes[index]) << (8 * UInt64(index - offset)) }
        combine(last)
    }

    /// The fingerprint of everything mixed in.
    var value: UInt64 {
        var final = self
        final.combine(0x5EED)
        return final.state
    }
}
