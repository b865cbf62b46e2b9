import Foundation

// The sync benchmarks of issue 24, on a throwaway PostgreSQL cluster and sync-server processes
// on loopback (see Benchmarks/README.md, "Sync"). Build the whole Server package in release
// mode first, so that the sync-server beside this executable is a release build:
//
//   swift build -c release --package-path Server
//   Server/.build/release/SyncBenchmark [latency] [initial] [load] [wire] [options]

Task { @MainActor in
    do {
        let arguments = try BenchmarkArguments(CommandLine.arguments.dropFirst())
        try await runBenchmarks(arguments)
        exit(0)
    } catch {
        print("SyncBenchmark failed: \(error)")
        exit(1)
    }
}
dispatchMain()

@MainActor
func runBenchmarks(_ arguments: BenchmarkArguments) async throws {
    for part in arguments.parts {
        switch part {
        case .latency:
            for rows in arguments.rows {
                print(try await WriteToChangeSet(rows: rows, iterations: arguments.iterations).run())
            }
        case .initial:
            print(try await InitialSync(rows: arguments.initialRows, batchSize: arguments.batchSize, rounds: arguments.rounds).run())
        case .load:
            for servers in arguments.serverCounts {
                let load = SustainedPushes(
                    clients: arguments.clients, serverCount: servers, duration: .seconds(arguments.seconds),
                    changesPerPush: arguments.changesPerPush, accounts: arguments.accounts ?? arguments.clients)
                print(try await load.run())
            }
        case .wire:
            print(try WireDecoding(rows: arguments.batchSize, iterations: arguments.iterations).run())
        }
    }
}
