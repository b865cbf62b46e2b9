import BenchmarkKit
import SQLiteStoreCore

extension Database {
    /// Applies one change of the observe workloads, as a SQLiteStore user writes it inside
    /// `store.write { db in … }`.
    public func apply(_ change: ItemChange) throws {
        switch change {
        case .update(let updates):
            for update in updates {
                try execute(
                    sql: "UPDATE item SET score = ?, flag = ? WHERE id = ?",
                    arguments: [update.score, update.flag, update.id])
            }
        case .insert(let item):
            var item = item
            try insert(&item)
        case .delete(let id):
            try delete(Item.self, id: id)
        }
    }
}
