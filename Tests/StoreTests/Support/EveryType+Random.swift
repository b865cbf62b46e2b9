import Foundation
import TestSupport

extension EveryType {
    /// A model of random values that a round trip keeps equal: any Double but NaN, dates on
    /// a 1/1024 s grid (exact in a Double both since 1970 and since 2001), unsigned integers
    /// up to `Int64.max`, and `nil` for about a third of the optionals.
    static func random(using generator: inout SeededGenerator) -> EveryType {
        var random = RandomValues(generator: generator)
        defer { generator = random.generator }
        var model = EveryType(
            bool: random.bool(), int: random.integer(Int.self), int8: random.integer(Int8.self), int16: random.integer(Int16.self),
            int32: random.integer(Int32.self), int64: random.integer(Int64.self), uint: random.integer(UInt.self),
            uint8: random.integer(UInt8.self), uint16: random.integer(UInt16.self), uint32: random.integer(UInt32.self),
            uint64: random.integer(UInt64.self), double: random.double(), float: random.float(), text: random.text(),
            data: random.data(), date: random.date(), uuid: random.uuid(), shade: random.element(of: Shade.allCases),
            level: random.element(of: Level.allCases), celsius: random.celsius(), size: random.element(of: Size.allCases),
            nested: random.nested(), tags: random.tags(), counts: random.counts(), shape: random.shape())
        // One statement each: the type checker would take too long over one call with them all.
        model.maybeBool = random.maybe { $0.bool() }
        model.maybeInt = random.maybe { $0.integer(Int.self) }
        model.maybeInt8 = random.maybe { $0.integer(Int8.self) }
        model.maybeInt16 = random.maybe { $0.integer(Int16.self) }
        model.maybeInt32 = random.maybe { $0.integer(Int32.self) }
        model.maybeInt64 = random.maybe { $0.integer(Int64.self) }
        model.maybeUint = random.maybe { $0.integer(UInt.self) }
        model.maybeUint8 = random.maybe { $0.integer(UInt8.self) }
        model.maybeUint16 = random.maybe { $0.integer(UInt16.self) }
        model.maybeUint32 = random.maybe { $0.integer(UInt32.self) }
        model.maybeUint64 = random.maybe { $0.integer(UInt64.self) }
        model.maybeDouble = random.maybe { $0.double() }
        model.maybeFloat = random.maybe { $0.float() }
        model.maybeText = random.maybe { $0.text() }
        model.maybeData = random.maybe { $0.data() }
        model.maybeDate = random.maybe { $0.date() }
        model.maybeUuid = random.maybe { $0.uuid() }
        model.maybeShade = random.maybe { $0.element(of: Shade.allCases) }
        model.maybeLevel = random.maybe { $0.element(of: Level.allCases) }
        model.maybeCelsius = random.maybe { $0.celsius() }
        model.maybeSize = random.maybe { $0.element(of: Size.allCases) }
        model.maybeNested = random.maybe { $0.nested() }
        model.maybeTags = random.maybe { $0.tags() }
        model.maybeCounts = random.maybe { $0.counts() }
        model.maybeShape = random.maybe { $0.shape() }
        return model
    }
}

/// Random values of the types of ``EveryType``.
private struct RandomValues {
    var generator: SeededGenerator

    mutating func maybe<V>(_ make: (inout RandomValues) -> V) -> V? {
        Int.random(in: 0..<3, using: &generator) == 0 ? nil : make(&self)
    }

    mutating func element<V>(of values: [V]) -> V { values.randomElement(using: &generator)! }

    mutating func bool() -> Bool { .random(using: &generator) }

    /// Any value up to `Int64.max`, the bounds more often than chance would give them.
    mutating func integer<V: FixedWidthInteger>(_: V.Type) -> V {
        let upper = V.bitWidth == 64 && !V.isSigned ? V(Int64.max) : V.max
        switch Int.random(in: 0..<8, using: &generator) {
        case 0: return V.min
        case 1: return upper
        default: return .random(in: V.min...upper, using: &generator)
        }
    }

    /// Any Double but NaN: random bit patterns cover subnormals, infinities and both zeros.
    mutating func double() -> Double {
        while true {
            let value = Double(bitPattern: generator.next())
            if !value.isNaN { return value }
        }
    }

    mutating func float() -> Float {
        while true {
            let value = Float(bitPattern: UInt32(truncatingIfNeeded: generator.next()))
            if !value.isNaN { return value }
        }
    }

    /// Text from ASCII (NUL included), Latin, combining marks, CJK and emoji.
    mutating func text() -> String {
        let ranges: [ClosedRange<UInt32>] = [0...0x7F, 0xA0...0x24F, 0x300...0x36F, 0x4E00...0x9FFF, 0x1F300...0x1FAFF]
        var scalars = String.UnicodeScalarView()
        for _ in 0..<Int.random(in: 0...20, using: &generator) {
            let range = element(of: ranges)
            if let scalar = Unicode.Scalar(UInt32.random(in: range, using: &generator)) { scalars.append(scalar) }
        }
        return String(scalars)
    }

    mutating func data() -> Data {
        Data((0..<Int.random(in: 0...40, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }

    mutating func date() -> Date { Date(timeIntervalSince1970: Double(Int64.random(in: -(1 << 43)...(1 << 43), using: &generator)) / 1024) }

    mutating func uuid() -> UUID {
        let bytes = (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
        return UUID(
            uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
            ))
    }

    mutating func celsius() -> Celsius { Celsius(degrees: .random(in: Celsius.absoluteZero...1e6, using: &generator)) }

    /// A finite measure: JSON has no infinities.
    mutating func nested() -> Nested { Nested(measure: .random(in: -1e300...1e300, using: &generator), note: text(), when: date()) }

    mutating func tags() -> [String] { (0..<Int.random(in: 0...3, using: &generator)).map { _ in text() } }

    mutating func counts() -> [String: Int] {
        Dictionary((0..<Int.random(in: 0...3, using: &generator)).map { _ in (text(), integer(Int.self)) }) { first, _ in first }
    }

    mutating func shape() -> Shape {
        Bool.random(using: &generator) ? .circle(radius: .random(in: 0...1e9, using: &generator)) : .label(text())
    }
}
