/// Whether this `store` has its sync commands: `store sync` and the demo's sync scene are built
/// with the SyncCommands trait only (Package.swift), so that `swift run store demo` builds neither
/// the sync client nor, on Linux, AsyncHTTPClient and NIO.
enum SyncBuild {
    /// The command that builds `store` with them, from the repository's root.
    static let buildCommand = "swift build --traits SyncCommands --product store"

    /// Whether this build has them.
    static var isIncluded: Bool {
        #if SyncCommands
        true
        #else
        false
        #endif
    }

    /// Throws ``missing(_:example:)`` when this build has no sync commands.
    static func require(_ what: String, example: String) throws {
        guard !isIncluded else { return }
        throw missing(what, example: example)
    }

    /// The exit-2 failure of `what` (such as "store sync") in a build without sync commands,
    /// naming `example` (a `store` command line) as the way to run it with them.
    static func missing(_ what: String, example: String) -> CommandFailure {
        CommandFailure(
            status: .usage, kind: "unavailable",
            message: "\(what) is not in this build of store, which was built without the SyncCommands trait (the sync client; "
                + "on Linux, AsyncHTTPClient and NIO): run swift run --package-path Server \(example) (the sync server's "
                + "package builds store with them, on its own build of NIO), or build this one with \(buildCommand)")
    }
}
