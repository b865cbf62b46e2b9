import ArgumentParser

/// The `store` command: migrations, live queries and the demo.
@main
struct StoreCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "store",
        abstract: "Migrate, inspect and watch SQLiteStore databases."
    )
}
