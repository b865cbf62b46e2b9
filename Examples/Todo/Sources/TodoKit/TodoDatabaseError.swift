/// Why the app's database could not be opened, beyond the store's and the migrator's own errors.
public enum TodoDatabaseError: Error, Equatable, CustomStringConvertible {
    /// TodoKit's resource bundle has no `Migrations` folder: the package was built without its
    /// resources.
    case migrationsNotBundled

    /// What went wrong, in a sentence for the user.
    public var description: String {
        switch self {
        case .migrationsNotBundled: "TodoKit's resource bundle has no Migrations folder"
        }
    }
}
