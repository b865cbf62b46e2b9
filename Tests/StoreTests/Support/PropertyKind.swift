import Foundation
import SQLiteStoreCore
import TestSupport

/// One property type of ``EveryType``: its column, its declared SQL type, and stored values
/// it cannot decode.
struct PropertyKind: Sendable {
    /// The column of the non-optional property.
    let column: String
    /// The column's declared type, which gives it SQLite's affinity.
    let declaredType: String
    /// Non-NULL values that the column keeps as they are (its affinity does not convert them)
    /// and that do not convert to the property's type.
    let undecodable: @Sendable (inout SeededGenerator) -> DatabaseValue
    /// For a `DatabaseValueConvertible` type, the other ways to read such a value: `Row.decode`
    /// of a row's column and `Boxed`, as the type itself or its optional.
    let otherReads: OtherReads?

    /// The reads of a `DatabaseValueConvertible` type that do not go through ``EveryType``.
    struct OtherReads: Sendable {
        let row: @Sendable (Row, String, _ optional: Bool) throws -> Void
        let boxed: @Sendable (Database, Int64, _ optional: Bool) throws -> Void

        init<V: DatabaseValueConvertible & Codable>(_: V.Type) {
            row = { row, column, optional in
                if optional {
                    _ = try row.decode(V?.self, column: column)
                } else {
                    _ = try row.decode(V.self, column: column)
                }
            }
            boxed = { db, rowID, optional in
                if optional {
                    _ = try db.fetchOne(Boxed<V?>.self, rowID: rowID)
                } else {
                    _ = try db.fetchOne(Boxed<V>.self, rowID: rowID)
                }
            }
        }
    }

    /// The column of the optional property.
    var optionalColumn: String { "maybe" + column.prefix(1).uppercased() + column.dropFirst() }

    /// Every property type of ``EveryType``, in its column order.
    static let all: [PropertyKind] = [
        PropertyKind(
            column: "bool", declaredType: "INTEGER", undecodable: { .pick([.word, .blob], &$0) }, otherReads: OtherReads(Bool.self)),
        integer("int", Int.self), integer("int8", Int8.self), integer("int16", Int16.self), integer("int32", Int32.self),
        integer("int64", Int64.self), integer("uint", UInt.self), integer("uint8", UInt8.self),
        integer("uint16", UInt16.self), integer("uint32", UInt32.self), integer("uint64", UInt64.self),
        PropertyKind(
            column: "double", declaredType: "REAL", undecodable: { .pick([.word, .blob], &$0) }, otherReads: OtherReads(Double.self)),
        PropertyKind(
            column: "float", declaredType: "REAL", undecodable: { .pick([.word, .blob], &$0) }, otherReads: OtherReads(Float.self)),
        // A TEXT column turns numbers into text, which is a String: only a blob is not one.
        PropertyKind(column: "text", declaredType: "TEXT", undecodable: { .randomBlob(&$0) }, otherReads: OtherReads(String.self)),
        // Text is read as its UTF-8 bytes.
        PropertyKind(
            column: "data", declaredType: "BLOB", undecodable: { .pick([.integer, .fraction], &$0) }, otherReads: OtherReads(Data.self)),
        PropertyKind(column: "date", declaredType: "REAL", undecodable: { .pick([.word, .blob], &$0) }, otherReads: OtherReads(Date.self)),
        PropertyKind(column: "uuid", declaredType: "TEXT", undecodable: { .malformedUUID(&$0) }, otherReads: OtherReads(UUID.self)),
        PropertyKind(
            column: "shade", declaredType: "TEXT", undecodable: { .pick([.word, .blob], &$0) }, otherReads: OtherReads(Shade.self)),
        PropertyKind(
            column: "level", declaredType: "INTEGER",
            undecodable: { generator in
                let outside = DatabaseValue.integer(Int64(Level.allCases.last!.rawValue) + .random(in: 1...1_000, using: &generator))
                return Bool.random(using: &generator) ? outside : .pick([.word, .blob, .fraction], &generator)
            },
            otherReads: OtherReads(Level.self)),
        PropertyKind(
            column: "celsius", declaredType: "REAL",
            undecodable: { generator in
                let tooCold = DatabaseValue.real(.random(in: -1e300..<Celsius.absoluteZero, using: &generator))
                return Bool.random(using: &generator) ? tooCold : .pick([.word, .blob], &generator)
            },
            otherReads: OtherReads(Celsius.self)),
        json("size", ["\"medium\"", "{}", "[]", "1"]),
        json("nested", ["{}", "[]", "\"x\"", "{\"measure\":1,\"note\":\"n\"}", "{\"measure\":\"1\",\"note\":\"n\",\"when\":0}"]),
        json("tags", ["{}", "[1]", "\"tag\"", "[[]]"]),
        json("counts", ["[]", "{\"a\":\"b\"}", "{\"a\":1.5}"]),
        json("shape", ["{}", "[]", "{\"circle\":{}}", "{\"label\":{\"_0\":1}}"]),
    ]

    /// An integer type: a number outside its range, a fraction, text or a blob.
    private static func integer<V: FixedWidthInteger & DatabaseValueConvertible & Codable>(_ column: String, _: V.Type) -> PropertyKind {
        PropertyKind(
            column: column, declaredType: "INTEGER",
            undecodable: { generator in
                var choices: [DatabaseValue.Undecodable] = [.word, .blob, .fraction, .beyondInt64]
                if V.min > Int64.min { choices.append(.below(Int64(V.min))) }
                if V.max < Int64.max { choices.append(.above(Int64(V.max))) }
                return .pick(choices, &generator)
            },
            otherReads: OtherReads(V.self))
    }

    /// A `Codable` type stored as JSON: text that is not JSON, JSON of another shape, a blob that is not UTF-8.
    private static func json(_ column: String, _ otherShapes: [String]) -> PropertyKind {
        PropertyKind(
            column: column, declaredType: "TEXT",
            undecodable: { generator in
                switch Int.random(in: 0..<3, using: &generator) {
                case 0: .text(otherShapes.randomElement(using: &generator)!)
                case 1: .pick([.word], &generator)
                default: .randomBlob(&generator)
                }
            },
            otherReads: nil)
    }
}

extension DatabaseValue {
    /// The kinds of values that do not convert to a type.
    enum Undecodable {
        /// Lowercase letters after an `x`: not a number, a date, a UUID, an enum case or JSON.
        case word
        /// Bytes that start with 0xFF, so never UTF-8 text.
        case blob
        /// Any INTEGER.
        case integer
        /// A REAL with a fractional part.
        case fraction
        /// A REAL beyond the range of `Int64`.
        case beyondInt64
        /// An INTEGER below the bound.
        case below(Int64)
        /// An INTEGER above the bound.
        case above(Int64)
    }

    /// One of `choices`, picked and filled at random.
    static func pick(_ choices: [Undecodable], _ generator: inout SeededGenerator) -> DatabaseValue {
        switch choices.randomElement(using: &generator)! {
        case .word:
            let letters = (0..<Int.random(in: 1...8, using: &generator)).map { _ in
                Character(Unicode.Scalar(UInt8.random(in: 97...122, using: &generator)))
            }
            return .text("x" + String(letters))
        case .blob: return .randomBlob(&generator)
        case .integer: return .integer(.random(in: .min ... .max, using: &generator))
        case .fraction: return .real(Double(Int32.random(in: .min ... .max, using: &generator)) + 0.5)
        case .beyondInt64: return .real((Bool.random(using: &generator) ? 1 : -1) * .random(in: 0x1p64...0x1p70, using: &generator))
        case .below(let bound): return .integer(.random(in: Int64.min..<bound, using: &generator))
        case .above(let bound): return .integer(.random(in: (bound + 1)...Int64.max, using: &generator))
        }
    }

    /// A blob of 0 to 40 bytes, the first 0xFF; never 16 bytes (which is a UUID).
    static func randomBlob(_ generator: inout SeededGenerator) -> DatabaseValue {
        var count = Int.random(in: 0...40, using: &generator)
        if count == 16 { count = 17 }
        return .blob(Data((0..<count).map { $0 == 0 ? 0xFF : UInt8.random(in: 0...255, using: &generator) }))
    }

    /// Text that is almost a UUID (a character changed or missing), a word, or a blob that is not 16 bytes.
    static func malformedUUID(_ generator: inout SeededGenerator) -> DatabaseValue {
        var characters = Array(UUID().uuidString)
        let position = [0, 9, 14, 19, 24, 35].randomElement(using: &generator)!
        switch Int.random(in: 0..<4, using: &generator) {
        case 0: characters[position] = "G"
        case 1: characters.remove(at: position)
        case 2: return .pick([.word], &generator)
        default: return .randomBlob(&generator)
        }
        return .text(String(characters))
    }
}
