import Foundation

/// A text collation: how SQLite compares and orders TEXT values.
///
/// SQLite's built-in collations are `.binary` (UTF-8 bytes, the default), `.nocase` (ASCII
/// letters folded to lower case, other bytes as they are) and `.rtrim` (trailing spaces
/// ignored). Other collations are Swift comparisons registered with the store
/// (`StoreConfiguration.collations`): SQLite then calls the same function that orders
/// values in memory, so a fetched-results controller orders exactly as SQL does.
///
/// ```swift
/// var configuration = StoreConfiguration()
/// configuration.collations = [.localized(Locale(identifier: "sv_SE"))]
/// let request = StoreRequest<Item>().order(Column("title").ascending(collation: .localized(Locale(identifier: "sv_SE"))))
/// ```
///
/// Collations are identified by name, case-insensitively, as in SQLite.
public struct Collation: Sendable, Hashable, CustomStringConvertible {
    /// The name SQL uses after `COLLATE`.
    public let name: String
    /// The comparison of a collation registered by the store; `nil` for SQLite's built-in ones.
    public let comparison: (@Sendable (String, String) -> ComparisonResult)?

    /// A collation SQLite knows already (built in, or registered by other means).
    public init(named name: String) {
        self.name = name
        comparison = nil
    }

    /// A collation the store registers on every connection under `name`. `comparison` must
    /// be a total order, deterministic, and must not call back into the database.
    public init(name: String, comparison: @escaping @Sendable (String, String) -> ComparisonResult) {
        self.name = name
        self.comparison = comparison
    }

    /// UTF-8 bytes, shorter prefix first: SQLite's default.
    public static let binary = Collation(named: "BINARY")
    /// ASCII letters compared without case; other characters as bytes.
    public static let nocase = Collation(named: "NOCASE")
    /// Like `binary`, trailing spaces (U+0020) ignored.
    public static let rtrim = Collation(named: "RTRIM")

    /// A Unicode-aware, locale-aware order (Foundation's localized comparison, `options`
    /// such as `.caseInsensitive` or `.diacriticInsensitive`), named `localized_<locale>` unless
    /// `name` is given. Register it in `StoreConfiguration.collations` to use it in SQL.
    public static func localized(
        _ locale: Locale = .current, options: String.CompareOptions = [],
        name: String? = nil
    ) -> Collation {
        let identifier = locale.identifier.isEmpty ? "root" : locale.identifier
        let optionsSuffix = options.isEmpty ? "" : "_\(options.rawValue)"
        return Collation(name: name ?? "localized_\(identifier)\(optionsSuffix)") { lhs, rhs in
            lhs.compare(rhs, options: options, range: nil, locale: locale)
        }
    }

    public var description: String { name }

    /// Collations are equal when their names are equal, ignoring ASCII case (SQLite's rule).
    public static func == (lhs: Collation, rhs: Collation) -> Bool { lhs.name.matchesSQLiteIdentifier(rhs.name) }

    public func hash(into hasher: inout Hasher) { hasher.combine(name.sqliteIdentifierFolded) }

    /// `COLLATE "name"`.
    var sql: String { "COLLATE \(SQLIdentifier.quote(name))" }
}
