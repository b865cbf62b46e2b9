// swift-tools-version:6.2
import CompilerPluginSupport
import PackageDescription

/// SQLite's development files come from pkg-config on Linux (Debian's `libsqlite3-dev`). On Apple
/// platforms the SDK's own SQLite is linked: asking pkg-config there could pick Homebrew's
/// library for a macOS build, and has nothing to offer an iOS build.
#if os(Linux)
let sqliteLibrary = Target.systemLibrary(
    name: "CSQLite",
    pkgConfig: "sqlite3",
    providers: [.apt(["libsqlite3-dev"])]
)
#else
let sqliteLibrary = Target.systemLibrary(name: "CSQLite")
#endif

let package = Package(
    name: "SQLiteStore",
    // The floor of the store core (models, requests, change notifications, migrations). One list
    // serves every module, so the newer pieces say so with `@available`: live results and view
    // models need Observation (macOS 14, iOS 17, tvOS 17, watchOS 10), and `StoreViewModel`
    // needs `AsyncIteratorProtocol.next(isolation:)` (macOS 15, iOS 18, tvOS 18, watchOS 11).
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
    products: [
        .library(name: "SQLiteStore", targets: ["SQLiteStore"]),
        .library(name: "SQLiteStoreCore", targets: ["SQLiteStoreCore"]),
        .library(name: "SQLiteStoreResults", targets: ["SQLiteStoreResults"]),
        .library(name: "SQLiteStoreViewModels", targets: ["SQLiteStoreViewModels"]),
        // Sync between devices through a server: recording, merging, the client and its transport.
        .library(name: "SQLiteStoreSync", targets: ["SQLiteStoreSync"]),
        // The sync wire format, without SQLite: the server package (Server/) links this alone.
        .library(name: "SQLiteStoreSyncProtocol", targets: ["SQLiteStoreSyncProtocol"]),
        // The @StoreModel macro, separate so that apps that do not use it never build swift-syntax.
        .library(name: "SQLiteStoreMacros", targets: ["SQLiteStoreMacros"]),
        .executable(name: "store", targets: ["StoreCLI"]),
        // A seeded random generator for the tests and benchmarks of this repository's packages
        // (Benchmarks/ and Server/ reach another package's targets only through its products).
        // No library target depends on it, so apps never build it.
        .library(name: "SQLiteStoreSeededRandom", targets: ["SQLiteStoreSeededRandom"]),
    ],
    // Off by default, so that `swift run store demo` on a fresh clone builds neither the sync
    // client nor, on Linux, AsyncHTTPClient and NIO (504 build steps instead of 1748); with it,
    // `swift build --traits SyncCommands --product store`. The library products are the same
    // with or without it. Its name is a compilation condition in every target of this package.
    traits: [
        .trait(
            name: "SyncCommands",
            description: "The store command's sync subcommands and the demo's sync scene; on Linux they build AsyncHTTPClient."
        )
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        // `TreeDictionary`: the values of `LiveValues`, shared between consecutive results.
        .package(url: "https://github.com/apple/swift-collections", from: "1.1.0"),
        // `swift package generate-documentation` builds the DocC catalogs; a plugin only, linked into nothing.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
        // The sync client's transport on Linux (`AsyncHTTPClientTransport`): FoundationNetworking's
        // `URLSession` ends the process on some cut connections. Apple platforms use `URLSession`
        // and never build it (the product's platform condition below).
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        // Any swift-syntax an app's other macro packages may pin, from Swift 6.0's on.
        .package(url: "https://github.com/swiftlang/swift-syntax", "600.0.0"..<"605.0.0"),
    ],
    targets: [
        sqliteLibrary,
        // Strings compared by their UTF-8 bytes, as SQLite compares them: the core and the wire
        // format both need it, and neither depends on the other. Not a product.
        .target(name: "SQLiteStoreUTF8", path: "Sources/UTF8"),
        // What devices and the sync server send each other, in JSON; Foundation only.
        .target(name: "SQLiteStoreSyncProtocol", dependencies: ["SQLiteStoreUTF8"], path: "Sources/SyncProtocol"),
        // The privacy manifest declares the file-timestamp API the migrator calls (`fstat`, `lstat`).
        .target(
            name: "SQLiteStoreCore",
            dependencies: ["CSQLite", "SQLiteStoreUTF8"],
            path: "Sources/Store",
            resources: [.copy("PrivacyInfo.xcprivacy")]
        ),
        .target(
            name: "SQLiteStoreResults",
            dependencies: ["SQLiteStoreCore", .product(name: "HashTreeCollections", package: "swift-collections")],
            path: "Sources/FetchedResults"
        ),
        .target(
            name: "SQLiteStoreViewModels",
            dependencies: ["SQLiteStoreCore", "SQLiteStoreResults"],
            path: "Sources/ViewModels"
        ),
        // Sync: the core knows nothing of it but one seam (`CommitParticipant`). AsyncHTTPClient
        // carries its requests on Linux only; Apple platforms use `URLSession` and never build NIO.
        .target(
            name: "SQLiteStoreSync",
            dependencies: [
                "SQLiteStoreCore", "SQLiteStoreSyncProtocol",
                .product(name: "AsyncHTTPClient", package: "async-http-client", condition: .when(platforms: [.linux, .android])),
            ],
            path: "Sources/Sync"
        ),
        .target(
            name: "SQLiteStore",
            dependencies: ["SQLiteStoreCore", "SQLiteStoreResults", "SQLiteStoreViewModels", "SQLiteStoreSync"]
        ),
        // The macros' code, a library of its own so that tests expand it without depending on
        // the compiler plugin (a test that depends on a macro target is built for the host,
        // where SwiftPM does not build the `store` executable that StoreCLITests imports).
        .target(
            name: "SQLiteStoreMacrosImplementation",
            dependencies: [.product(name: "SwiftSyntaxMacros", package: "swift-syntax")],
            path: "Sources/StoreMacrosImplementation"
        ),
        .macro(
            name: "SQLiteStoreMacrosPlugin",
            dependencies: [
                "SQLiteStoreMacrosImplementation",
                .product(name: "SwiftCompilerPlugin", package: "swift-syntax"),
            ],
            path: "Sources/StoreMacrosPlugin"
        ),
        .target(
            name: "SQLiteStoreMacros",
            dependencies: ["SQLiteStoreCore", "SQLiteStoreMacrosPlugin"],
            path: "Sources/StoreMacros"
        ),
        // Without the macro, so that `swift run store demo` never builds swift-syntax, and without
        // sync unless the SyncCommands trait asks for it (its code is under `#if SyncCommands`).
        // The demo's example schema lives in Demo/Migrations (Migrations/ at the root links to it)
        // and ships as a resource.
        .executableTarget(
            name: "StoreCLI",
            dependencies: [
                "SQLiteStoreCore", "SQLiteStoreResults", "SQLiteStoreViewModels",
                .target(name: "SQLiteStoreSync", condition: .when(traits: ["SyncCommands"])),
                .target(name: "SQLiteStoreSyncProtocol", condition: .when(traits: ["SyncCommands"])),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            resources: [.copy("Demo/Migrations")]
        ),
        .target(name: "SQLiteStoreSeededRandom", path: "Tests/SeededRandom"),
        .target(name: "TestSupport", dependencies: ["SQLiteStoreCore", "SQLiteStoreSeededRandom"], path: "Tests/TestSupport"),
        .testTarget(
            name: "StoreTests",
            dependencies: [
                "SQLiteStoreCore", "SQLiteStoreSync", "SQLiteStoreMacros", "CSQLite", "TestSupport", "SQLiteStoreSyncProtocol",
            ]
        ),
        .testTarget(
            name: "StoreMacrosTests",
            dependencies: [
                "SQLiteStoreMacrosImplementation",
                .product(name: "SwiftSyntaxMacrosGenericTestSupport", package: "swift-syntax"),
            ]
        ),
        .testTarget(
            name: "FetchedResultsTests",
            dependencies: ["SQLiteStoreResults", "SQLiteStoreCore", "SQLiteStoreSync", "TestSupport"]
        ),
        .testTarget(
            name: "ViewModelsTests",
            dependencies: ["SQLiteStoreViewModels", "SQLiteStoreResults", "SQLiteStoreCore", "SQLiteStoreMacros", "TestSupport"]
        ),
        .testTarget(name: "StoreCLITests", dependencies: ["SQLiteStoreCore", "StoreCLI", "TestSupport"]),
        .testTarget(name: "SQLiteStoreTests", dependencies: ["SQLiteStore", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
