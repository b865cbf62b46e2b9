// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "SQLiteStore",
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10)],
    products: [
        .library(name: "Store", targets: ["Store"]),
        .library(name: "FetchedResults", targets: ["FetchedResults"]),
        .library(name: "ViewModels", targets: ["ViewModels"]),
        .executable(name: "store", targets: ["StoreCLI"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]
        ),
        .target(name: "Store", dependencies: ["CSQLite"]),
        .target(name: "FetchedResults", dependencies: ["Store"]),
        .target(name: "ViewModels", dependencies: ["Store", "FetchedResults"]),
        .executableTarget(
            name: "StoreCLI",
            dependencies: [
                "Store", "FetchedResults", "ViewModels",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .target(name: "TestSupport", dependencies: ["Store"], path: "Tests/TestSupport"),
        .testTarget(name: "StoreTests", dependencies: ["Store", "CSQLite", "TestSupport"]),
        .testTarget(name: "FetchedResultsTests", dependencies: ["FetchedResults", "Store", "TestSupport"]),
        .testTarget(name: "ViewModelsTests", dependencies: ["ViewModels", "FetchedResults", "Store", "TestSupport"]),
        .testTarget(name: "StoreCLITests", dependencies: ["Store", "StoreCLI"]),
    ],
    swiftLanguageModes: [.v6]
)
