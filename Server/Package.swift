// swift-tools-version:6.2
import PackageDescription

/// The sync server (see the SyncBetweenDevices article): stateless HTTP processes in front of one
/// PostgreSQL database. A separate package so that apps and the library's CI never build
/// Hummingbird or PostgresNIO. It shares the wire format with the library through
/// `SQLiteStoreSyncProtocol`, and learns the apps' synced schema with `SQLiteStoreSync`, which
/// applies their migrations to an in-memory SQLite database (`SyncSchema`).
let package = Package(
    name: "SQLiteStoreServer",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "sync-server", targets: ["SyncServerCommand"])
    ],
    dependencies: [
        // With the SyncCommands trait, so that `swift build --package-path Server --product store`
        // builds the root's `store` with its sync commands, for StoreSyncCommandTests, beside
        // the tests and on this package's build of NIO.
        .package(name: "SQLiteStore", path: "..", traits: ["SyncCommands"]),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
    ],
    targets: [
        .target(
            name: "StoreSyncServer",
            dependencies: [
                .product(name: "SQLiteStoreSyncProtocol", package: "SQLiteStore"),
                .product(name: "SQLiteStoreCore", package: "SQLiteStore"),
                .product(name: "SQLiteStoreSync", package: "SQLiteStore"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]
        ),
        .executableTarget(
            name: "SyncServerCommand",
            dependencies: [
                "StoreSyncServer", .product(name: "SQLiteStoreCore", package: "SQLiteStore"),
                .product(name: "SQLiteStoreSync", package: "SQLiteStore"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ]
        ),
        // What the tests and the benchmark start: a throwaway PostgreSQL cluster, sync-server
        // processes, and the seeded generator of their random operations. Not a product: apps
        // never see it.
        .target(
            name: "SyncServerHarness",
            dependencies: [.product(name: "SQLiteStoreSeededRandom", package: "SQLiteStore")]
        ),
        // The sync benchmarks (Benchmarks/README.md, "Sync"): build in release mode with the
        // whole package, so that the sync-server beside it is a release build too.
        .executableTarget(
            name: "SyncBenchmark",
            dependencies: [
                "SyncServerHarness",
                .product(name: "SQLiteStoreCore", package: "SQLiteStore"),
                .product(name: "SQLiteStoreSync", package: "SQLiteStore"),
                .product(name: "SQLiteStoreResults", package: "SQLiteStore"),
                .product(name: "SQLiteStoreSyncProtocol", package: "SQLiteStore"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                // `compaction` fills the log in SQL and runs the server's maintenance in process.
                "StoreSyncServer", .product(name: "PostgresNIO", package: "postgres-nio"),
                // Its load generators' HTTP: thousands of connections on NIO's event loops.
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
            ]
        ),
        // A client process the convergence tests kill between a write's commit and its push.
        .executableTarget(
            name: "SyncTestClient",
            dependencies: [.product(name: "SQLiteStore", package: "SQLiteStore")],
            path: "Tests/SyncTestClient"
        ),
        .testTarget(
            name: "SyncServerTests",
            dependencies: [
                "StoreSyncServer", "SyncServerCommand", "SyncTestClient", "SyncServerHarness",
                .product(name: "SQLiteStore", package: "SQLiteStore"),
                .product(name: "SQLiteStoreCore", package: "SQLiteStore"),
                .product(name: "SQLiteStoreSync", package: "SQLiteStore"),
                .product(name: "SQLiteStoreSyncProtocol", package: "SQLiteStore"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
