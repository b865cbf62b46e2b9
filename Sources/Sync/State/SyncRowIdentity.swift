import SQLiteStoreCore

/// One row of a synced table, as a set member: its table's name, told apart by its bytes as
/// SQLite tells tables apart (String's `==` would take `"caf\u{E9}s"` and `"cafe\u{301}s"` for
/// one table), and its key, a value whose `==` compares texts by their bytes too.
struct SyncRowIdentity<Key: Hashable>: Hashable {
    let table: BytesKey
    let key: Key

    init(table: String, key: Key) {
        self.table = BytesKey(string: table)
        self.key = key
    }
}
