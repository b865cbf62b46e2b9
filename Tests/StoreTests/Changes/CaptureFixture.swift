import Testing

@testable import SQLiteStoreCore

/// A store on a temporary file whose change capture reads rows from a given source, with a
/// recorder of what it publishes: change-capture tests run once per source the linked SQLite
/// offers (on Linux both: the pre-update hook, and the update hook that Apple's SQLite gives).
struct CaptureFixture {
    let directory: TemporaryDirectory
    let store: Store
    let recorder: ChangeRecorder
    let source: ChangeCapture.Source

    init(_ source: ChangeCapture.Source, schema: String, configure: (inout StoreConfiguration) -> Void = { _ in }) throws {
        directory = try TemporaryDirectory()
        var configuration = StoreConfiguration()
        configuration.changeCaptureSource = source
        configure(&configuration)
        store = try directory.makeStore(configuration: configuration, schema: schema)
        recorder = try ChangeRecorder(store: store)
        self.source = source
    }

    /// Whether rows come from the pre-update hook (exact REPLACE reports).
    var hasPreUpdateHook: Bool { source == .preUpdateHook }
}

extension ChangeCapture.Source: CustomTestStringConvertible {
    public var testDescription: String { self == .preUpdateHook ? "pre-update hook" : "update hook (forced fallback)" }
}
