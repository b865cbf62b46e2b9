// Part of `store sync`: built with the SyncCommands trait only (see Package.swift and SyncBuild).
#if SyncCommands
import SQLiteStoreCore
import SQLiteStoreSync
import SQLiteStoreSyncProtocol

/// How `store sync` prints the changes a server refused: one line per row and reason, with
/// how many of its changes (one per column written) were refused, each line escaped (see `EscapedText`).
enum SyncRefusalLines {
    /// `items 'milk': readOnly (2 changes): the row belongs to a share this account reads only`.
    static func lines(_ refusals: [SyncRefusal]) -> [String] {
        var groups: [(refusal: SyncRefusal, count: Int)] = []
        for refusal in refusals {
            let index = groups.firstIndex { group in
                group.refusal.table == refusal.table && group.refusal.key == refusal.key && group.refusal.reason == refusal.reason
            }
            if let index { groups[index].count += 1 } else { groups.append((refusal, 1)) }
        }
        return groups.map { refusal, count in
            let changes = count == 1 ? "1 change" : "\(count) changes"
            let row = SyncRootRow(table: refusal.table, key: refusal.key)
            return "\(row): \(refusal.reason.rawValue) (\(changes)): \(EscapedText.escaping(refusal.message, quotes: false))"
        }
    }
}

/// A row's key as SQL spells it, for people: `'milk'`, `x'00ff'`, `12`.
enum SyncKeyText {
    /// The key as an SQL literal.
    static func literal(_ key: SyncWireValue) -> String {
        switch key {
        case .null: "NULL"
        case .integer(let value): String(value)
        case .real(let value): String(value)
        case .text(let text): "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
        case .blob(let bytes): "x'" + bytes.map { String($0, radix: 16).leftPadded(to: 2, with: "0") }.joined() + "'"
        }
    }
}
#endif
