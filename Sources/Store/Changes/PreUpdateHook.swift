import CSQLite

/// SQLite's pre-update hook, when the library linked at run time has it.
///
/// The hook's functions exist only in SQLite libraries built with `SQLITE_ENABLE_PREUPDATE_HOOK`
/// (Debian's and Ubuntu's are; Apple's system library is not), so they are looked up in the linked
/// library when first needed instead of being named in code: the package links against any SQLite,
/// and an app that links its own SQLite with the hook gets the exact capture on any platform.
struct PreUpdateHook: @unchecked Sendable {
    /// `@unchecked`: C function pointers, immutable once looked up.
    private let register: csqlite_preupdate_hook_function
    private let triggerDepth: csqlite_preupdate_depth_function
    private let blobWriteColumn: csqlite_preupdate_blobwrite_function?

    /// The hook of the linked SQLite, or `nil` when it was built without it.
    static let linked: PreUpdateHook? = {
        guard sqlite3_compileoption_used("ENABLE_PREUPDATE_HOOK") != 0,
            let register = csqlite_linked_function("sqlite3_preupdate_hook"),
            let depth = csqlite_linked_function("sqlite3_preupdate_depth")
        else { return nil }
        let blobWrite = csqlite_linked_function("sqlite3_preupdate_blobwrite")
        return PreUpdateHook(
            register: unsafeBitCast(register, to: csqlite_preupdate_hook_function.self),
            triggerDepth: unsafeBitCast(depth, to: csqlite_preupdate_depth_function.self),
            blobWriteColumn: blobWrite.map { unsafeBitCast($0, to: csqlite_preupdate_blobwrite_function.self) })
    }()

    /// Installs `callback` on `connection` (replacing any previous pre-update hook).
    func install(on connection: OpaquePointer, _ callback: csqlite_preupdate_callback, context: UnsafeMutableRawPointer) {
        _ = register(connection, callback, context)
    }

    /// Whether the event being reported is the statement's own row (not a trigger's or a
    /// foreign key action's). Call only from inside the callback.
    func isTopLevel(on connection: OpaquePointer) -> Bool {
        triggerDepth(connection) == 0
    }

    /// Whether the DELETE event being reported is really `sqlite3_blob_write` changing a column
    /// in place (SQLite reports those as deletes). Call only from inside the callback.
    func isBlobWrite(on connection: OpaquePointer) -> Bool {
        guard let blobWriteColumn else { return false }
        return blobWriteColumn(connection) >= 0
    }
}
