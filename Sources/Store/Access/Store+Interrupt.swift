extension Store {
    /// Stops the statements running on the store's connections now, from any thread: each
    /// fails with `SQLITE_INTERRUPT` (`sqlite3_interrupt`). A statement that starts after the
    /// call runs normally, so a caller that must stop everything calls it until its work ended.
    package func interruptRunningStatements() {
        writer.interrupt()
        for reader in readers?.readers ?? [] { reader.interrupt() }
    }
}
