import ArgumentParser
import Foundation

/// The sync benchmarks of issue 24, on a throwaway PostgreSQL cluster and sync-server processes
/// on loopback (see Benchmarks/README.md, "Sync"). Build the whole Server package in release
/// mode first, so that the sync-server beside this executable is a release build:
///
///     swift build -c release --package-path Server
///     Server/.build/release/SyncBenchmark [latency] [initial] [load] [wire] [connections] [compaction] [sharing] [options]
@main
struct SyncBenchmarkCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "SyncBenchmark",
        abstract: "Measure sync on a throwaway PostgreSQL cluster and sync-server processes.",
        discussion: """
            Without a part named, all seven run. `initial` measures --rounds pairs of a local insert and \
            an initial sync; `wire` decodes pages of --batch rows --iterations times; `connections` holds \
            --devices long polls on one server process and pushes --changes changes to them; `sharing` \
            shares a list of --shared-items items between two accounts, times --writes writes of each \
            kind and --share-rounds revocations, and compares pushes to servers with sharing on and off.
            """)

    @Argument(help: "The parts to run: latency, initial, load, wire, connections, compaction, sharing (all when none is named).")
    var parts: [BenchmarkPart] = []
    @Option(
        help: ArgumentHelp("latency: the notes both devices hold, one measurement each (10000,1000000).", valueName: "n,n"),
        transform: counts)
    var rows = [10_000, 1_000_000]
    @Option(help: "latency: edits measured; wire: pages decoded.") var iterations = 200
    @Option(help: "initial: the notes a new device syncs.") var initialRows = 100_000
    @Option(help: "initial: pairs of a local insert and a sync.") var rounds = 3
    @Option(name: .customLong("batch"), help: "initial: rows per snapshot page; wire: rows per page decoded.")
    var batchSize = 5_000
    @Option(help: "load: devices pushing at once.") var clients = 50
    @Option(help: "load: seconds of pushing.") var seconds = 10
    @Option(
        name: .customLong("servers"), help: ArgumentHelp("load: server processes, one run each (1,2).", valueName: "n,n"), transform: counts
    )
    var serverCounts = [1, 2]
    @Option(help: "load: new changes a push.") var changesPerPush = 10
    @Option(help: "load: accounts of the devices (one a device when not given); connections: (one per 5 devices when not given).")
    var accounts: Int?
    @Option(help: "connections: devices connected at once by long poll.") var devices = 5_000
    @Option(help: "connections: changes pushed while they are connected, one a push.") var changes = 500
    @Option(help: "connections: milliseconds between two of those pushes.") var intervalMs = 20
    @Option(help: "compaction: the updates in the log before it is compacted.") var updates = 1_000_000
    @Option(help: "compaction: the rows those updates write (three columns each).") var compactedRows = 10_000
    @OptionGroup(title: "Sharing") var sharing: SharingOptions

    func validate() throws {
        let positives: [(String, Int?)] = [
            ("--iterations", iterations), ("--initial-rows", initialRows), ("--rounds", rounds), ("--batch", batchSize),
            ("--clients", clients), ("--seconds", seconds), ("--changes-per-push", changesPerPush), ("--accounts", accounts),
            ("--devices", devices), ("--changes", changes), ("--interval-ms", intervalMs), ("--updates", updates),
            ("--compacted-rows", compactedRows),
        ]
        for (option, value) in positives where value.map({ $0 <= 0 }) == true {
            throw ValidationError("\(option) takes a positive integer")
        }
    }

    func run() async throws { try await measure() }

    /// Runs the parts named, on the main actor, where the devices' live results deliver.
    @MainActor
    private func measure() async throws {
        for part in parts.isEmpty ? BenchmarkPart.allCases : parts {
            switch part {
            case .latency:
                for count in rows {
                    print(try await WriteToChangeSet(rows: count, iterations: iterations).run())
                }
            case .initial:
                print(try await InitialSync(rows: initialRows, batchSize: batchSize, rounds: rounds).run())
            case .load:
                var results: [SustainedPushes.Result] = []
                for servers in serverCounts {
                    let load = SustainedPushes(
                        clients: clients, serverCount: servers, duration: .seconds(seconds),
                        changesPerPush: changesPerPush, accounts: accounts ?? clients)
                    results.append(try await load.run())
                    print(results[results.count - 1])
                }
                if let one = results.first(where: { $0.configuration.serverCount == 1 }) {
                    for more in results where more.configuration.serverCount > 1 {
                        print(
                            "\(more.configuration.serverCount) server processes / 1: "
                                + String(format: "%.2f×", more.perSecond / one.perSecond) + " the changes a second")
                    }
                }
            case .wire:
                print(try WireDecoding(rows: batchSize, iterations: iterations).run())
            case .connections:
                let connections = ConnectedDevices(
                    devices: devices, accounts: min(accounts ?? max(devices / 5, 1), devices), changes: changes,
                    interval: .milliseconds(intervalMs))
                print(try await connections.run())
            case .compaction:
                print(try await LogCompaction(updates: updates, rows: compactedRows).run())
            case .sharing:
                try await sharing.run()
            }
        }
    }
}

/// A comma-separated list of positive integers (`--rows 10000,1000000`).
private func counts(_ value: String) throws -> [Int] {
    try value.split(separator: ",", omittingEmptySubsequences: false).map { part in
        guard let count = Int(part), count > 0 else { throw ValidationError("\(value) is not a list of positive integers") }
        return count
    }
}
