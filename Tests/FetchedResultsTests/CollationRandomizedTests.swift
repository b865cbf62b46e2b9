import Foundation
import SQLiteStoreCore
import Testing

@testable import SQLiteStoreResults

/// Random transactions against controllers ordered and sectioned by text under every kind
/// of collation (BINARY, NOCASE, RTRIM, a Swift collation registered with the store, one
/// SQLite knows but the controller does not, one named in the ordering) and by mixed
/// INTEGER/REAL/TEXT keys, over texts that are canonically equivalent (NFC/NFD), equal
/// under NOCASE or RTRIM, or not; controllers switch between two tables whose rowids overlap.
/// After every transaction, each controller's delivered change sets must replay into a fresh
/// SQL read (sections named byte for byte), and sampled `object(at:)` must be that row.
///
/// `FRC_SEED` replays a seed; `FRC_COLLATION_TRANSACTIONS` sets the number of transactions (1,500).
@MainActor @Suite(.timeLimit(.minutes(15))) struct CollationRandomizedTests {
    struct Entry: StoreModel, Equatable {
        static let tableName = "entry"
        var id: Int64?
        var plain: String?
        var folded: String?
        var trimmed: String?
        var local: String?
        var hidden: String?
    }

    static let columns = """
        id INTEGER PRIMARY KEY, plain TEXT, folded TEXT COLLATE NOCASE, trimmed TEXT COLLATE RTRIM,
        local TEXT COLLATE \(localized.name), hidden TEXT COLLATE hidden, num
        """
    static let schema = """
        CREATE TABLE entry(\(columns));
        CREATE TABLE entry2(\(columns));
        CREATE TRIGGER entry2_touches_entry AFTER INSERT ON entry2 BEGIN
            UPDATE entry SET num = NEW.num WHERE id = NEW.id;
        END;
        """
    /// Registered with the store: the controller compares with the same function as SQL.
    static let localized = Collation.localized(Locale(identifier: "en_US"), options: [.caseInsensitive])
    /// Known to SQLite only (registered behind the store's back): the controller lets SQLite rank rows.
    static let hidden = Collation(name: "hidden") { lhs, rhs in
        Array(rhs.utf8).lexicographicallyPrecedes(Array(lhs.utf8))
            ? .orderedAscending : (lhs.utf8.elementsEqual(rhs.utf8) ? .orderedSame : .orderedDescending)
    }

    static var configuration: StoreConfiguration {
        var configuration = StoreConfiguration()
        configuration.collations = [localized]
        let hidden = hidden
        configuration.prepareDatabase = { db in try db.register(hidden) }
        return configuration
    }

    static let requests: [StoreRequest<Entry>] = [
        StoreRequest<Entry>().order(Column("folded").ascending).sectioned(by: Column("folded")).batchSize(3),
        StoreRequest<Entry>().order(Column("trimmed").descending, Column("plain").ascending).sectioned(by: Column("trimmed")),
        StoreRequest<Entry>().order(Column("local").ascending).batchSize(4),
        StoreRequest<Entry>().order(Column("plain").descending(collation: .nocase), Column("num").ascending),
        StoreRequest<Entry>().order(Column("num").ascending).sectioned(by: Column("num")),
        StoreRequest<Entry>().filter(SQLExpression(sql: "length(plain) > ?", arguments: [0]))
            .order(Column("plain").ascending).sectioned(by: Column("plain")).batchSize(2),
        StoreRequest<Entry>().order(Column("hidden").ascending).sectioned(by: Column("hidden")),
        StoreRequest<Entry>().order(Column("plain").descending(collation: localized), Column("num").descending).limit(9, offset: 2),
        StoreRequest<Entry>().filter(Column("folded") != "a").order(Column("num").descending, Column("folded").ascending),
    ]

    /// Texts equal or not under each collation: NFC/NFD and other canonical equivalents,
    /// case variants, trailing spaces, compatibility (not canonical) equivalents.
    static let texts: [String?] = [
        nil, "", "a", "A", "a ", "a  ", " a", "b", "B ", "z", "Z",
        "Caf\u{E9}", "Cafe\u{301}", "caf\u{E9}", "CAF\u{C9}", "CAFE\u{301}",
        "\u{2126}", "\u{3A9}", "\u{212B}", "\u{C5}", "A\u{30A}",
        "\u{1E0A}\u{323}", "\u{1E0C}\u{307}", "D\u{323}\u{307}", "\u{FB01}", "fi", "\u{E9}t\u{E9}",
        "twelve bytes", "Twelve Bytes  ", "exactly 16 bytes", "Exactly 16 Bytes",
        "a text longer than sixteen bytes", "A TEXT LONGER THAN SIXTEEN BYTES ", "long caf\u{E9} text over 16",
        "long cafe\u{301} text over 16",
    ]

    static let farRowIDs: [Int64] = [-2049, -1, 0, 1023, 1024, 4096, 1 << 33, Int64.max - 1]

    static let numbers: [DatabaseValue] = [
        .null, .integer(2), .real(2.0), .real(2.5), .integer(-1), .real(-0.0), .integer(3), .text("2"), .real(1e20),
        .blob(Data([0, 1])), .blob(Data()), .integer(Int64.max), .real(9.223372036854775807e18),
    ]

    @Test func collationsAndTablesReplayIntoFreshFetches() async throws {
        let run = RandomizedRun("CollationRandomizedTests", transactionsFrom: "FRC_COLLATION_TRANSACTIONS", default: 1_500)
        let (seed, transactions) = (run.seed, run.transactions)
        var random = run.random
        let directory = try TemporaryDirectory()
        let store = try directory.makeStore(configuration: Self.configuration, schema: Self.schema)
        let other = try Store(path: directory.path("test.sqlite"), configuration: Self.configuration)
        var checkers: [ReplayChecker<Entry>] = []
        for request in Self.requests {
            let controller = FetchedResultsController(store: store, request: request)
            try controller.performFetch()
            checkers.append(ReplayChecker(controller))
        }
        for step in 0..<transactions {
            if Int.random(in: 0..<100, using: &random) < 4 {
                let controller = checkers.randomElement(using: &random)!.controller
                var request = controller.request
                request.tableName = request.tableName == "entry" ? "entry2" : "entry"
                try controller.setRequest(request)
            } else {
                try await randomTransaction(&random, store: store, other: other)
            }
            for (number, checker) in checkers.enumerated() {
                let context = "seed \(seed), step \(step), controller \(number) on \(checker.controller.request.tableName)"
                guard try await checker.check(store, context) else { return }
                try checkSampledObject(checker.controller, store: store, &random, context)
            }
        }
    }

    /// The object at a random index path is the row SQLite has there, byte for byte.
    private func checkSampledObject(
        _ controller: FetchedResultsController<Entry>, store: Store,
        _ random: inout SeededGenerator, _ context: String
    ) throws {
        let sections = controller.sections.enumerated().filter { $0.element.numberOfObjects > 0 }
        guard let (section, info) = sections.randomElement(using: &random) else { return }
        let path = IndexPath(row: Int.random(in: 0..<info.numberOfObjects, using: &random), section: section)
        let object = try controller.object(at: path)
        let table = controller.request.tableName
        #expect(object.id == controller.results.objectID(at: path)?.rowID, "\(context): object(at: \(path))")
        let stored = try store.read { db in
            try db.fetchRows(sql: "SELECT plain FROM \(SQLIdentifier.quote(table)) WHERE id = ?", arguments: [object.id ?? -1])
        }
        #expect(stored.first.map { $0[0] } == object.plain.map { .text($0) } ?? .null, "\(context): object(at: \(path)) is stale")
        #expect(stored.first?[0].textBytes == object.plain.map { Array($0.utf8) }, "\(context): object(at: \(path)) bytes")
    }

    private func randomText(_ random: inout SeededGenerator) -> DatabaseValue {
        Self.texts.randomElement(using: &random)!.map { .text($0) } ?? .null
    }

    private func randomRow(_ random: inout SeededGenerator) -> [any DatabaseValueConvertible] {
        (0..<5).map { _ in randomText(&random) } + [Self.numbers.randomElement(using: &random)!]
    }

    private func randomStatement(_ random: inout SeededGenerator) -> RandomStatement {
        let table = Bool.random(using: &random) ? "entry" : "entry2"
        // Mostly small rowids; some on other pages of the controller's key map, negative ones included.
        let id =
            Int.random(in: 0..<5, using: &random) == 0
            ? Self.farRowIDs.randomElement(using: &random)! : Int64.random(in: 1...30, using: &random)
        let columns = "plain, folded, trimmed, local, hidden, num"
        switch Int.random(in: 0..<100, using: &random) {
        case 0..<30:
            return RandomStatement(sql: "INSERT INTO \(table)(\(columns)) VALUES (?, ?, ?, ?, ?, ?)", arguments: randomRow(&random))
        case 30..<40:
            return RandomStatement(
                sql: "INSERT OR REPLACE INTO \(table)(id, \(columns)) VALUES (?, ?, ?, ?, ?, ?, ?)", arguments: [id] + randomRow(&random))
        case 40..<65:
            let column = ["plain", "folded", "trimmed", "local", "hidden"].randomElement(using: &random)!
            return RandomStatement(sql: "UPDATE \(table) SET \(column) = ? WHERE id = ?", arguments: [randomText(&random), id])
        case 65..<75:
            return RandomStatement(
                sql: "UPDATE \(table) SET num = ? WHERE id = ?", arguments: [Self.numbers.randomElement(using: &random)!, id])
        case 75..<80:
            return RandomStatement(
                sql: "UPDATE \(table) SET folded = upper(folded), trimmed = trimmed || ' ' WHERE id % 3 = ?", arguments: [id % 3])
        case 80..<83: return RandomStatement(sql: "UPDATE \(table) SET plain = plain", arguments: [])
        case 83..<97: return RandomStatement(sql: "DELETE FROM \(table) WHERE id = ?", arguments: [id])
        default: return RandomStatement(sql: "DELETE FROM \(table)", arguments: [])
        }
    }

    private func randomTransaction(_ random: inout SeededGenerator, store: Store, other: Store) async throws {
        var statements = (0..<Int.random(in: 1...3, using: &random)).map { _ in randomStatement(&random) }
        // A primary key conflict under ABORT: caught, and the transaction commits the rest.
        statements.append(
            RandomStatement(
                sql: "INSERT INTO entry(id, plain) VALUES (?, 'conflict')",
                arguments: [Int64.random(in: 1...30, using: &random)], mayFail: true))
        try await RandomCommit.run(statements, store: store, other: other, &random)
    }
}

extension DatabaseValue {
    var textBytes: [UInt8]? {
        if case .text(let text) = self { return Array(text.utf8) }
        return nil
    }
}
