import Foundation
import SQLiteStore

/// `SyncTestClient DATABASE SERVER TOKEN OPERATION…`: a client process of the sync convergence
/// tests, which kill it (SIGKILL) at a random moment: in a write, between a write's commit and
/// its push, in a push. It opens the database syncing `items` and `tags` (the schema of the
/// tests' `SyncedStores`), runs the operations in order, each write its own transaction,
/// prints `done N` after each, then waits to be killed.
///
/// Operations: `item:KEY:TITLE` inserts an item, `n:KEY:VALUE` sets an item's `n`, `delete:KEY`
/// deletes an item (its tags follow), `tag:KEY:ITEM` inserts a tag (refused by SQLite when the
/// item is missing here: caught, nothing recorded), `sync` pushes and pulls (failures ignored:
/// the server may be down).
@main
struct SyncTestClient {
    static func main() async throws {
        let arguments = CommandLine.arguments.dropFirst()
        guard arguments.count >= 3, let server = URL(string: arguments[arguments.startIndex + 1]) else {
            FileHandle.standardError.write(Data("usage: SyncTestClient DATABASE SERVER TOKEN OPERATION…\n".utf8))
            exit(2)
        }
        var configuration = StoreConfiguration()
        configuration.sync = SyncConfiguration(tables: ["items", "tags", "notes"])
        configuration.busyTimeout = .seconds(60)
        let store = try Store(path: arguments[arguments.startIndex], configuration: configuration)
        let client = SyncClient(store: store, server: server, token: arguments[arguments.startIndex + 2])
        for (index, operation) in arguments.dropFirst(3).enumerated() {
            try await run(operation.split(separator: ":", omittingEmptySubsequences: false).map(String.init), store, client)
            FileHandle.standardOutput.write(Data("done \(index + 1)\n".utf8))
        }
        while true { try await Task.sleep(for: .seconds(60)) }
    }

    private static func run(_ operation: [String], _ store: Store, _ client: SyncClient) async throws {
        switch operation.first {
        case "item" where operation.count == 3:
            try await store.write { db in
                try db.execute(sql: "INSERT INTO items(id, title) VALUES (?, ?)", arguments: [operation[1], operation[2]])
            }
        case "n" where operation.count == 3:
            try await store.write { db in
                try db.execute(sql: "UPDATE items SET n = ? WHERE id = ?", arguments: [Int64(operation[2]) ?? 0, operation[1]])
            }
        case "delete" where operation.count == 2:
            try await store.write { db in try db.execute(sql: "DELETE FROM items WHERE id = ?", arguments: [operation[1]]) }
        case "tag" where operation.count == 3:
            do {
                try await store.write { db in
                    try db.execute(sql: "INSERT INTO tags(id, item, label) VALUES (?, ?, 'p')", arguments: [operation[1], operation[2]])
                }
            } catch is StoreError {}
        case "sync":
            _ = try? await client.synchronize()
        default:
            FileHandle.standardError.write(Data("unknown operation \(operation.joined(separator: ":"))\n".utf8))
            exit(2)
        }
    }
}
