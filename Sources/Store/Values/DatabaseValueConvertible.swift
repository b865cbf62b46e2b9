import Foundation

/// A Swift type that is stored as one SQLite value.
///
/// The library ships conformances for `Bool`, the integer types, `Double`, `Float`,
/// `String`, `Data`, `Date`, `UUID`, `Optional` and `DatabaseValue`. A
/// `RawRepresentable` type whose raw value conforms can declare the conformance with
/// no body.
public protocol DatabaseValueConvertible: Sendable {
    /// The value to store.
    var databaseValue: DatabaseValue { get }
    /// The Swift value for a stored value, or `nil` if it does not convert.
    static func fromDatabaseValue(_ value: DatabaseValue) -> Self?
}

extension DatabaseValueConvertible {
    /// Converts a stored value, throwing a `StoreError` (`SQLITE_MISMATCH`) when it does not fit.
    static func decode(_ value: DatabaseValue, context: @autoclosure () -> String) throws -> Self {
        guard let decoded = fromDatabaseValue(value) else {
            throw StoreError.mismatch("cannot convert \(value) to \(Self.self) (\(context()))")
        }
        return decoded
    }

    /// `fromDatabaseValue(value)` as `T`, for code that knows `Self` only at run time (through
    /// an existential metatype); `nil` when the value does not convert.
    ///
    /// The conversion is unwrapped before the cast: cast whole, a failed conversion (`nil` of
    /// `Self?`) would succeed as `.none` whenever `T` is itself optional, and a stored value
    /// that does not fit an optional property would read as `nil`, to be erased by the next save.
    static func fromDatabaseValue<T>(_ value: DatabaseValue, as type: T.Type) -> T? {
        guard let converted = fromDatabaseValue(value) else { return nil }
        return converted as? T
    }
}

extension DatabaseValue: DatabaseValueConvertible {
    /// The value itself.
    public var databaseValue: DatabaseValue { self }
    /// The value itself; never `nil`.
    public static func fromDatabaseValue(_ value: DatabaseValue) -> DatabaseValue? { value }
}

extension Optional: DatabaseValueConvertible where Wrapped: DatabaseValueConvertible {
    /// `NULL` for `nil`, the wrapped value's storage otherwise.
    public var databaseValue: DatabaseValue { self?.databaseValue ?? .null }
    /// `.some(nil)` for `NULL`; `nil` when a non-NULL value does not convert to `Wrapped`.
    public static func fromDatabaseValue(_ value: DatabaseValue) -> Wrapped?? {
        if value.isNull { return .some(nil) }
        return Wrapped.fromDatabaseValue(value).map { .some($0) }
    }
}

extension RawRepresentable where Self: DatabaseValueConvertible, RawValue: DatabaseValueConvertible {
    /// The raw value's storage.
    public var databaseValue: DatabaseValue { rawValue.databaseValue }
    /// The case whose raw value is stored, or `nil` if there is none.
    public static func fromDatabaseValue(_ value: DatabaseValue) -> Self? {
        RawValue.fromDatabaseValue(value).flatMap(Self.init(rawValue:))
    }
}
