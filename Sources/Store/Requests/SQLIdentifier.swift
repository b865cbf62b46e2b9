/// Quoting of SQL identifiers: every table and column name the library writes into SQL goes through here.
public enum SQLIdentifier {
    /// `name` as a double-quoted SQL identifier, inner quotes doubled: `my "col"` → `"my ""col"""`.
    public static func quote(_ name: String) -> String {
        // A fetch writes its SQL anew, quoting each name several times, and Foundation's
        // `replacingOccurrences` cost microseconds a call (2% of the caller's part of an
        // unindexed first screen at 10k rows, by `perf`): a name without a quote, the usual
        // one, skips it.
        guard name.utf8.contains(UInt8(ascii: "\"")) else { return "\"" + name + "\"" }
        return "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
