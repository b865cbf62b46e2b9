/// Quoting of SQL identifiers: every table and column name the library writes into SQL goes through here.
public enum SQLIdentifier {
    /// `name` as a double-quoted SQL identifier, inner quotes doubled: `my "col"` → `"my ""col"""`.
    public static func quote(_ name: String) -> String {
        "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
