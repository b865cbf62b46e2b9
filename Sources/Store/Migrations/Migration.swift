/// One step in the history of a database's schema: an up change, and optionally the down
/// change that undoes it.
///
/// Migrations come from `NNNN_name.sql` files (see `Migration(version:name:sql:path:)`
/// and `Migrator(folder:)`) or from Swift closures:
///
/// ```swift
/// let addNotes = Migration(version: 5, name: "add_notes") { db in
///     try db.execute(sql: "ALTER TABLE item ADD COLUMN notes TEXT")
/// } down: { db in
///     try db.execute(sql: "ALTER TABLE item DROP COLUMN notes")
/// }
/// ```
public struct Migration: Sendable {
    /// The version: a positive integer, unique among a migrator's migrations, that orders them.
    public let version: Int
    /// The name: letters, digits and `_`.
    public let name: String
    /// The file the migration was read from, or `nil` for a Swift migration.
    public let path: String?
    /// What the ledger records to detect edits: the SHA-256 of a file's normalized text,
    /// or the checksum given to a Swift migration.
    public let checksum: String
    /// Whether the migration runs in a transaction with its ledger row (all but
    /// `-- store:no-transaction` files).
    public let usesTransaction: Bool
    /// Legal but suspicious statements found in the file.
    public let warnings: [MigrationWarning]
    let up: Body
    let down: Body?

    /// What a migration runs in one direction.
    enum Body: Sendable {
        case sql(SQLScript)
        case swift(@Sendable (Database) throws -> Void)
    }

    /// A migration written in Swift.
    ///
    /// - Parameters:
    ///   - version: the migration's version: a positive integer, unique in its migrator.
    ///   - name: a short name, recorded in the ledger.
    ///   - checksum: recorded in the ledger; change it when you change what `up` does and
    ///     want `status` to report the migration as edited.
    ///   - usesTransaction: `false` runs the closures outside a transaction, for `VACUUM`
    ///     and pragmas that do nothing inside one; such a migration is not atomic.
    ///   - up: applies the migration.
    ///   - down: undoes it; without it the migration cannot be rolled back.
    public init(
        version: Int, name: String, checksum: String = "", usesTransaction: Bool = true,
        up: @escaping @Sendable (Database) throws -> Void,
        down: (@Sendable (Database) throws -> Void)? = nil
    ) {
        self.init(
            version: version, name: name, path: nil, checksum: checksum, usesTransaction: usesTransaction,
            warnings: [], up: .swift(up), down: down.map(Body.swift))
    }

    init(
        version: Int, name: String, path: String?, checksum: String, usesTransaction: Bool,
        warnings: [MigrationWarning], up: Body, down: Body?
    ) {
        self.version = version
        self.name = name
        self.path = path
        self.checksum = checksum
        self.usesTransaction = usesTransaction
        self.warnings = warnings
        self.up = up
        self.down = down
    }

    /// Whether the migration can be undone: it has a down section (with at least one
    /// statement) or a `down` closure.
    public var isReversible: Bool { down != nil }

    /// Where the migration comes from, for messages: its file, or a description of a Swift migration.
    public var location: String { path ?? "Swift migration \(version) \(name)" }

    /// The SQL statements the migration runs in `direction`, one per line group;
    /// `nil` for a Swift closure or a missing down section.
    public func sql(_ direction: MigrationDirection) -> String? {
        guard case .sql(let script)? = body(direction) else { return nil }
        return script.statements.map(\.sql).joined(separator: "\n")
    }

    func body(_ direction: MigrationDirection) -> Body? {
        switch direction {
        case .up: up
        case .down: down
        }
    }
}
