import Foundation

@testable import SQLiteStoreCore
@testable import SQLiteStoreResults

extension Store {
    /// What `request` selects now, read straight from SQLite, as sections of object IDs.
    ///
    /// SQLite decides which rows share a section: `dense_rank()` over the section key's
    /// ordering term numbers the sections with the collation in force (so `'a'` and `'A'`
    /// share one under NOCASE, `2` and `2.0` share one anywhere). A section is named by the
    /// value of its first row, as the controller documents.
    ///
    /// An ordering through a to-one link compares with the parent column's declared collation,
    /// which the controller's plan writes into the SQL (a scalar subquery carries none).
    func freshSnapshot<M: StoreModel>(_ request: StoreRequest<M>) throws -> SectionedSnapshot<ObjectID> {
        let request = try read { db in try FetchPlan(request, db: db, registered: configuration.collations).request }
        guard let sectionKey = request.sectionKey, let first = request.orderings.first else {
            let (sql, arguments) = try request.sql(selecting: "rowid")
            let rows = try read { db in try db.fetchRows(sql: sql, arguments: arguments) }
            return SectionedSnapshot(ids: rows.map { ObjectID(table: request.tableName, rowID: $0[0].integer) })
        }
        let (sql, arguments) = try request.sql(
            selecting: "rowid, \(sectionKey.sql), dense_rank() OVER (ORDER BY \(first.sql))",
            arguments: sectionKey.arguments + first.arguments)
        let rows = try read { db in try db.fetchRows(sql: sql, arguments: arguments) }
        var sections: [SectionedSnapshot<ObjectID>.Section] = []
        var lastSection: Int64?
        for row in rows {
            if row[2].integer != lastSection { sections.append(.init(name: row[1].sectionName, ids: [])) }
            lastSection = row[2].integer
            sections[sections.count - 1].ids.append(ObjectID(table: request.tableName, rowID: row[0].integer))
        }
        return SectionedSnapshot(sections: sections)
    }
}

extension DatabaseValue {
    var integer: Int64 {
        if case .integer(let value) = self { return value }
        return -1
    }

    /// The section name the controller gives this section key value.
    var sectionName: String? {
        switch self {
        case .null: nil
        case .text(let text): text
        default: description
        }
    }
}

extension SectionedSnapshot {
    /// The section names as UTF-8 bytes: SQLite compares text by bytes, where Swift's `==`
    /// calls canonically equivalent strings (NFC and NFD) equal.
    var nameBytes: [[UInt8]?] { sections.map { $0.name.map { Array($0.utf8) } } }

    /// Equal with section names compared byte by byte.
    func isExactly(_ other: SectionedSnapshot) -> Bool { self == other && nameBytes == other.nameBytes }
}
