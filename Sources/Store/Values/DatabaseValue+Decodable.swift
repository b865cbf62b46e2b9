import Foundation

extension DatabaseValue: Decodable {
    /// Decodes a single value as SQLite stores it: `nil` as NULL, then an integer, a real, a
    /// text or bytes, whichever the decoder holds. A ``FetchedRow`` hands an included sum,
    /// least or greatest value (``RelatedValue``) to a `DatabaseValue` property as it is, so
    /// that a column whose type varies decodes into the app's own type:
    ///
    /// ```swift
    /// struct ListTotal: Decodable {
    ///     var list: TodoList
    ///     var total: DatabaseValue
    /// }
    /// ```
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let integer = try? container.decode(Int64.self) {
            self = .integer(integer)
        } else if let real = try? container.decode(Double.self) {
            self = .real(real)
        } else if let text = try? container.decode(String.self) {
            self = .text(text)
        } else {
            self = .blob(try container.decode(Data.self))
        }
    }
}
