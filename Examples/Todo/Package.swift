// swift-tools-version:6.2
import PackageDescription

/// A small to-do app on SQLiteStore, as the library's README and articles recommend: `TodoKit`
/// holds the models, migrations, view models and sync set-up, and is tested on Linux in CI;
/// `TodoApp` is a SwiftUI app on Apple platforms and a terminal program elsewhere.
let package = Package(
    name: "Todo",
    // `StoreViewModel`, the row view model's base class, needs macOS 15 / iOS 18.
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "TodoKit", targets: ["TodoKit"]),
        .executable(name: "TodoApp", targets: ["TodoApp"]),
    ],
    dependencies: [
        // The library from this repository; an app of yours names its URL instead (see its README).
        .package(name: "SQLiteStore", path: "../..")
    ],
    targets: [
        // The migrations ship as SQL files: the same files the sync server is given (`--migrations`).
        .target(
            name: "TodoKit",
            dependencies: [
                .product(name: "SQLiteStore", package: "SQLiteStore"),
                .product(name: "SQLiteStoreMacros", package: "SQLiteStore"),
            ],
            resources: [.copy("Migrations")]
        ),
        .executableTarget(name: "TodoApp", dependencies: ["TodoKit"]),
        .testTarget(name: "TodoKitTests", dependencies: ["TodoKit"]),
    ],
    swiftLanguageModes: [.v6]
)
