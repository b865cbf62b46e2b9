import Foundation

/// The library's own `DatabaseValueConvertible` types, convertible from generic code that
/// does not know the concrete type.
///
/// Calling `fromDatabaseValue` from unspecialized generic code makes Swift look up the
/// metadata of `Optional<Self>` at run time, which costs more than the conversion; a
/// throwing conversion returns `Self` and needs no such lookup.
protocol StandardValue: DatabaseValueConvertible {
    /// `fromDatabaseValue(value)`, throwing where that returns `nil`.
    static func converted(from value: DatabaseValue) throws(ConversionFailure) -> Self
}

/// A stored value that does not convert to the requested type.
struct ConversionFailure: Error {}

extension StandardValue {
    static func converted(from value: DatabaseValue) throws(ConversionFailure) -> Self {
        guard let converted = fromDatabaseValue(value) else { throw ConversionFailure() }
        return converted
    }
}

extension Bool: StandardValue {}
extension Int64: StandardValue {}
extension Int: StandardValue {}
extension Int8: StandardValue {}
extension Int16: StandardValue {}
extension Int32: StandardValue {}
extension UInt: StandardValue {}
extension UInt8: StandardValue {}
extension UInt16: StandardValue {}
extension UInt32: StandardValue {}
extension UInt64: StandardValue {}
extension Double: StandardValue {}
extension Float: StandardValue {}
extension String: StandardValue {}
extension Data: StandardValue {}
extension Date: StandardValue {}
extension UUID: StandardValue {}
extension DatabaseValue: StandardValue {}
