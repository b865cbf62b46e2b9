/// SHA-256 (FIPS 180-4), for migration checksums.
///
/// Foundation has no hash function on Linux and the package takes no crypto dependency;
/// the migrator needs only a stable digest of small texts, so this is a plain implementation.
enum SHA256 {
    /// The lowercase hexadecimal SHA-256 digest of `bytes`.
    static func hexDigest<Bytes: Collection<UInt8>>(of bytes: Bytes) -> String {
        var state = initialState
        var message = Array(bytes)
        let bitLength = UInt64(message.count) &* 8
        message.append(0x80)
        while message.count % 64 != 56 { message.append(0) }
        for shift in stride(from: 56, through: 0, by: -8) {
            message.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift)))
        }
        for blockStart in stride(from: 0, to: message.count, by: 64) {
            compress(message[blockStart..<blockStart + 64], into: &state)
        }
        return state.map { word in
            let hex = String(word, radix: 16)
            return String(repeating: "0", count: 8 - hex.count) + hex
        }.joined()
    }

    /// Mixes one 64-byte block into the hash state.
    private static func compress(_ block: ArraySlice<UInt8>, into state: inout [UInt32]) {
        var schedule = [UInt32](repeating: 0, count: 64)
        for index in 0..<16 {
            let offset = block.startIndex + index * 4
            schedule[index] = block[offset..<offset + 4].reduce(0) { $0 << 8 | UInt32($1) }
        }
        for index in 16..<64 {
            let early = schedule[index - 15], late = schedule[index - 2]
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
        for (index, value) in [a, b, c, d, e, f, g, h].enumerated() {
            state[index] = state[index] &+ value
        }
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

private extension UInt32 {
    func rotatedRight(_ count: UInt32) -> UInt32 { (self >> count) | (self << (32 - count)) }
}
