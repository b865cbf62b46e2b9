/// SHA-256 (FIPS 180-4), for migration checksums.
///
/// Foundation has no hash function on Linux and the package takes no crypto dependency;
/// the migrator needs only a stable digest of small texts, so this is a plain implementation.
enum SHA256 {
    /// The lowercase hexadecimal SHA-256 digest of `bytes`, in one pass without copying
    /// contiguous input (arrays, native strings' UTF-8).
    static func hexDigest<Bytes: Collection<UInt8>>(of bytes: Bytes) -> String {
        let state =
            bytes.withContiguousStorageIfAvailable { digest(of: UnsafeRawBufferPointer($0)) }
            ?? Array(bytes).withUnsafeBytes { digest(of: $0) }
        return state.map { word in
            let hex = String(word, radix: 16)
            return String(repeating: "0", count: 8 - hex.count) + hex
        }.joined()
    }

    private static func digest(of bytes: UnsafeRawBufferPointer) -> [UInt32] {
        var state = initialState
        var schedule = [UInt32](repeating: 0, count: 64)
        let wholeBlocks = bytes.count / 64 * 64
        for blockStart in stride(from: 0, to: wholeBlocks, by: 64) {
            compress(UnsafeRawBufferPointer(rebasing: bytes[blockStart..<blockStart + 64]), schedule: &schedule, into: &state)
        }
        var tail = Array(bytes[wholeBlocks...])
        let bitLength = UInt64(bytes.count) &* 8
        tail.append(0x80)
        while tail.count % 64 != 56 { tail.append(0) }
        for shift in stride(from: 56, through: 0, by: -8) {
            tail.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift)))
        }
        tail.withUnsafeBytes { tail in
            for blockStart in stride(from: 0, to: tail.count, by: 64) {
                compress(UnsafeRawBufferPointer(rebasing: tail[blockStart..<blockStart + 64]), schedule: &schedule, into: &state)
            }
        }
        return state
    }

    /// Mixes one 64-byte block into the hash state; `schedule` is scratch space of 64 words.
    private static func compress(_ block: UnsafeRawBufferPointer, schedule: inout [UInt32], into state: inout [UInt32]) {
        for index in 0..<16 {
            let offset = index * 4
            schedule[index] =
                UInt32(block[offset]) << 24 | UInt32(block[offset + 1]) << 16
                | UInt32(block[offset + 2]) << 8 | UInt32(block[offset + 3])
        }
        for index in 16..<64 {
            let early = schedule[index - 15]
            let late = schedule[index - 2]
            let sigma0 = early.rotatedRight(7) ^ early.rotatedRight(18) ^ (early >> 3)
            let sigma1 = late.rotatedRight(17) ^ late.rotatedRight(19) ^ (late >> 10)
            schedule[index] = schedule[index - 16] &+ sigma0 &+ schedule[index - 7] &+ sigma1
        }
        var (a, b, c, d, e, f, g, h) = (state[0], state[1], state[2], state[3], state[4], state[5], state[6], state[7])
        for index in 0..<64 {
            let sum1 = e.rotatedRight(6) ^ e.rotatedRight(11) ^ e.rotatedRight(25)
            let choice = (e & f) ^ (~e & g)
            let temp1 = h &+ sum1 &+ choice &+ roundConstants[index] &+ schedule[index]
            let sum0 = a.rotatedRight(2) ^ a.rotatedRight(13) ^ a.rotatedRight(22)
            let majority = (a & b) ^ (a & c) ^ (b & c)
            (h, g, f, e, d, c, b, a) = (g, f, e, d &+ temp1, c, b, a, temp1 &+ sum0 &+ majority)
        }
        state[0] &+= a
        state[1] &+= b
        state[2] &+= c
        state[3] &+= d
        state[4] &+= e
        state[5] &+= f
        state[6] &+= g
        state[7] &+= h
    }

    /// The first 32 bits of the fractional parts of the square roots of the first 8 primes.
    private static let initialState = primes.prefix(8).map { fractionBits(of: $0.squareRoot()) }

    /// The first 32 bits of the fractional parts of the cube roots of the first 64 primes.
    private static let roundConstants = primes.map { fractionBits(of: cubeRoot($0)) }

    /// The first 64 primes.
    private static let primes: [Double] = {
        var found: [Int] = []
        var candidate = 2
        while found.count < 64 {
            if !found.contains(where: { candidate % $0 == 0 }) { found.append(candidate) }
            candidate += 1
        }
        return found.map(Double.init)
    }()

    /// The cube root of a small positive number, to double precision (Newton's method).
    private static func cubeRoot(_ value: Double) -> Double {
        var root = value / 3
        for _ in 0..<100 { root -= (root * root * root - value) / (3 * root * root) }
        return root
    }

    private static func fractionBits(of value: Double) -> UInt32 {
        UInt32((value - value.rounded(.down)) * 4_294_967_296)
    }
}

extension UInt32 {
    fileprivate func rotatedRight(_ count: UInt32) -> UInt32 { (self >> count) | (self << (32 - count)) }
}
