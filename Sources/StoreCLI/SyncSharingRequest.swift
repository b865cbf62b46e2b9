// Part of `store sync`: built with the SyncCommands trait only (see Package.swift and SyncBuild).
#if SyncCommands
import ArgumentParser
import Foundation
import SQLiteStoreCore
import SQLiteStoreSync
import SQLiteStoreSyncProtocol

/// The root row a sharing subcommand of `store sync` is about.
struct SyncRootOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The root table: one of the server's --share-roots.", valueName: "table"))
    var table: String

    @Option(
        help: ArgumentHelp(
            "The root row's key: its text, or the hex of a BLOB key (the database says which one its table holds).",
            valueName: "key"))
    var key: String

    func validate() throws {
        guard !table.isEmpty else { throw ValidationError("--table names a root table") }
    }
}

/// What a sharing subcommand of `store sync` does around its request: opens the database for
/// reading (it must exist), makes a sync client for the server, and turns what the server
/// refuses into a ``SyncSharingFailure``.
struct SyncSharingRequest {
    let options: StoreOptions
    let server: SyncServerOptions

    /// Runs `body` with a client and the root row that `root` names, then prints the JSON
    /// document (its subcommand `command`) or the failure; `member` is the account a refusal
    /// may be about.
    func run<Body: Encodable>(
        _ command: String, root: SyncRootOptions, member: String? = nil, empty: Body,
        _ body: (SyncClient, SyncRootRow, CommandOutput) async throws -> Body
    ) async throws {
        try await run(command, empty: empty) { client, store, output in
            let row = SyncRootRow(table: root.table, key: try Self.key(of: root, in: store))
            do {
                return try await body(client, row, output)
            } catch let error as SyncServerError {
                throw SyncSharingFailure(error, server: client.server, root: row.description, member: member)
            }
        }
    }

    /// Runs `body` with a client, then prints the JSON document (its subcommand `command`) or the failure.
    func run<Body: Encodable>(
        _ command: String, empty: Body, _ body: (SyncClient, Store, CommandOutput) async throws -> Body
    ) async throws {
        let output = CommandOutput(options)
        var report = empty
        var failure: CommandFailure?
        do {
            let store = try options.openStoreForReading(ifMissing: .fail)
            defer { try? store.close() }
            let client = SyncClient(store: store, server: try server.url(), token: server.token)
            do {
                report = try await body(client, store, output)
            } catch let error as SyncServerError {
                throw SyncSharingFailure(error, server: client.server, root: nil, member: nil)
            }
        } catch let error as SyncSharingFailure {
            failure = CommandFailure(status: .failed, kind: error.kind, message: error.description)
        } catch {
            failure = CommandFailure(error)
        }
        try output.finish(command, body: report, failure: failure)
    }

    /// The key of the root row `root` names, as the database holds it: the text given, or the
    /// bytes its hex spells when the root table holds a BLOB key of those bytes and no text
    /// one. The text when the database holds neither: the server decides.
    static func key(of root: SyncRootOptions, in store: Store) throws -> SyncWireValue {
        let text = SyncWireValue.text(root.key)
        guard let bytes = Data(hex: root.key) else { return text }
        return try store.read { db in
            let keys = try db.fetchRows(
                sql: "SELECT name FROM pragma_table_info(?) WHERE pk > 0", arguments: [DatabaseValue.text(root.table)])
            guard keys.count == 1, case .text(let column)? = keys[0]["name"] else { return text }
            let sql = "SELECT count(*) FROM \(SQLIdentifier.quote(root.table)) WHERE \(SQLIdentifier.quote(column)) = ?"
            if try db.fetchValue(Int.self, sql: sql, arguments: [DatabaseValue.text(root.key)]) ?? 0 > 0 { return text }
            return try db.fetchValue(Int.self, sql: sql, arguments: [DatabaseValue.blob(bytes)]) ?? 0 > 0 ? .blob(bytes) : text
        }
    }
}

/// A root row: its table and its key.
struct SyncRootRow: CustomStringConvertible, Encodable {
    /// The root table.
    let table: String
    /// The row's key.
    let key: SyncWireValue

    /// `lists 'groceries'`, on one line (see `EscapedText`).
    var description: String { EscapedText.escaping("\(table) \(SyncKeyText.literal(key))", quotes: false) }
}

/// Why a sharing subcommand of `store sync` failed: what the server refused, in the terms of
/// the command line.
struct SyncSharingFailure: Error, CustomStringConvertible {
    /// `forbidden` (HTTP 403), `noSharing` (HTTP 404: a server without --share-roots),
    /// `malformed` (HTTP 400), or the reason of another ``SyncServerError``.
    let kind: String
    /// A sentence for people.
    let description: String

    init(_ error: SyncServerError, server: URL, root: String?, member: String?) {
        switch error.reason {
        case .forbidden where root != nil:
            kind = "forbidden"
            let noAccount = member.map { ", or no account is named \($0)" } ?? ""
            description =
                "\(root ?? "") is not a root of this account's data on the server (a row not synced yet, or another account's)\(noAccount) "
                + "(HTTP 403: \(error.message))"
        case .unexpectedResponse where error.status == 404:
            kind = "noSharing"
            description =
                "the server at \(server) does not share rows between accounts: start sync-server with --share-roots "
                + "and --share-paths (HTTP 404)"
        case .malformed:
            kind = "malformed"
            description = "the server refused the request (HTTP 400): \(error.message)"
        default:
            kind = error.reason.rawValue
            description = error.description
        }
    }
}

extension Data {
    /// The bytes that `hex` spells, two hex digits each, or `nil` for another text or an empty one.
    init?(hex: String) {
        let digits = Array(hex.utf8)
        guard !digits.isEmpty, digits.count.isMultiple(of: 2) else { return nil }
        var bytes: [UInt8] = []
        for index in stride(from: 0, to: digits.count, by: 2) {
            guard let high = Self.nibble(digits[index]), let low = Self.nibble(digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
        }
        self.init(bytes)
    }

    private static func nibble(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
#endif
