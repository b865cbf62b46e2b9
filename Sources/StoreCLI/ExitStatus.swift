/// The exit codes of the `store` command.
enum ExitStatus: Int32 {
    /// Everything worked.
    case success = 0
    /// A migration failed (and was rolled back), verification found differences, or
    /// `migrate`/`down` refused to run.
    case failed = 1
    /// Bad usage, a bad migrations folder, or a command this build lacks (`store sync` without
    /// the SyncCommands trait).
    case usage = 2
    /// The database cannot be opened or is not a database.
    case databaseUnavailable = 3

    /// The exit codes as `store --help` and the documentation state them.
    static let documentation = """
        EXIT CODES
          0  Success.
          1  A migration failed (it was rolled back; the error names the file, the
             statement's line and SQLite's message), verify found differences, or
             migrate/down refused to run (edited, missing, out-of-order or
             irreversible migrations).
          2  Bad usage (an argument that is not UTF-8 included), or a bad
             migrations folder: a malformed file name, duplicate versions, an
             unreadable file or one that is not a regular file; or store sync
             and demo --server in a store built without the SyncCommands trait.
          3  The database cannot be opened or is not a database (empty, foreign,
             or not a regular file, such as /dev/null).
        """
}
