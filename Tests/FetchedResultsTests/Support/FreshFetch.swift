import Foundation
import SQLiteStoreResults
import SQLiteStoreCore

extension Store {
    /// What `request` selects now, read straight from SQLite, as sections of object IDs:
    /// consecutive rows with the same section key value form a section.
    func freshSnapshot<M: StoreModel>(_ request: StoreRequest<M>) throws -> SectionedSnapshot<ObjectID> {
        let sectionColumn = request.sectionKey.map(\.quoted) ?? "NULL"
        let (sql, arguments) = try request.sql(selecting: "rowid, \(sectionColumn)")
        let rows = try read { db in try db.fetchRows(sql: sql, arguments: arguments) }
        guard request.sectionKey != nil else {
            return SectionedSnapshot(ids: rows.map { ObjectID(table: request.tableName, rowID: $0[0].integer) })
        }
        var sections: [SectionedSnapshot<ObjectID>.Section] = []
        var lastKey: DatabaseValue?
        for row in rows {
            if sections.isEmpty || lastKey.map({ DatabaseValue.compare($0, row[1]) != 0 }) ?? true {
                sections.append(.init(name: row[1].sectionName, ids: []))
            }
            lastKey = row[1]
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
