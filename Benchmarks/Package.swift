// swift-tools-version:6.1
import PackageDescription

/// Side-by-side benchmarks of SQLiteStore, GRDB and the raw SQLite C API.
/// A separate package so that the library and its CI never build the peers.
let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("MemberImportVisibility")
]

let package = Package(
    name: "SQLiteStoreBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "SQLiteStore", path: ".."),
        .package(url: "https://github.com/ordo-one/package-benchmark", exact: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CSQLiteBench",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]
        ),
        .target(
            name: "BenchmarkKit",
            dependencies: ["CSQLiteBench", .product(name: "SQLiteStoreSeededRandom", package: "SQLiteStore")],
            swiftSettings: strictSettings
        ),
        .target(
            name: "RawSQLiteContender",
            dependencies: ["BenchmarkKit", "CSQLiteBench"],
            swiftSettings: strictSettings
        ),
        .target(
            name: "GRDBContender",
            dependencies: ["BenchmarkKit", .product(name: "GRDB", package: "GRDB.swift")],
            swiftSettings: strictSettings
        ),
        .target(
            name: "StoreContender",
            dependencies: [
                "BenchmarkKit",
                .product(name: "SQLiteStoreCore", package: "SQLiteStore"),
                .product(name: "SQLiteStoreResults", package: "SQLiteStore"),
                .product(name: "SQLiteStoreMacros", package: "SQLiteStore"),
            ],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "RowCost",
            dependencies: ["BenchmarkKit", "RawSQLiteContender", "StoreContender"],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "LiveQueryLatency",
            dependencies: [
                "BenchmarkKit",
                "CSQLiteBench",
                "RawSQLiteContender",
                "StoreContender",
                .product(name: "SQLiteStoreCore", package: "SQLiteStore"),
                .product(name: "SQLiteStoreResults", package: "SQLiteStore"),
            ],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "LargeCommits",
            dependencies: ["BenchmarkKit", .product(name: "SQLiteStoreCore", package: "SQLiteStore")],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "FirstScreen",
            dependencies: ["BenchmarkKit", "RawSQLiteContender", "GRDBContender", "StoreContender"],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "StoreBenchmarks",
            dependencies: [
                "BenchmarkKit",
                "RawSQLiteContender",
                "GRDBContender",
                "StoreContender",
                .product(name: "Benchmark", package: "package-benchmark"),
            ],
            path: "Benchmarks/StoreBenchmarks",
            swiftSettings: strictSettings,
            plugins: [.plugin(name: "BenchmarkPlugin", package: "package-benchmark")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
