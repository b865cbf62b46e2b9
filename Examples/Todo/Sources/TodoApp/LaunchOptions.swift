import Foundation

/// What `TodoApp` is started with: `[--database PATH] [--server URL --token TOKEN] [COMMAND…]`.
/// The server and token may also come from the environment (`TODO_SERVER`, `TODO_TOKEN`), as an
/// Xcode scheme sets them.
struct LaunchOptions {
    /// The database file; `nil` for the app's default.
    var databasePath: String?
    /// The sync server, when the app syncs.
    var server: URL?
    /// The account's bearer token, which `sync-server add-token` printed.
    var token: String?
    /// One command to run instead of reading commands from standard input (the terminal only).
    var command: [String] = []

    static let usage = """
        usage: TodoApp [--database PATH] [--server URL --token TOKEN] [COMMAND]
          Without a COMMAND, reads commands from standard input (type "help").
          --database PATH   the database file (default: todo.sqlite)
          --server URL      a sync server (Server/ in this repository): sync at start and after each command
          --token TOKEN     the token that `sync-server add-token` printed for your account
        """

    /// Reads `arguments` (without the program's name), then `environment` for what they leave out.
    init(arguments: [String], environment: [String: String] = [:]) throws(LaunchOptionsError) {
        var remaining = arguments[...]
        while let argument = remaining.first, argument.hasPrefix("--") {
            remaining = remaining.dropFirst()
            guard let value = remaining.first else { throw .missingValue(argument) }
            remaining = remaining.dropFirst()
            switch argument {
            case "--database": databasePath = value
            case "--server":
                guard let url = URL(string: value), url.scheme == "http" || url.scheme == "https" else { throw .notAURL(value) }
                server = url
            case "--token": token = value
            default: throw .unknownOption(argument)
            }
        }
        command = Array(remaining)
        if server == nil, let value = environment["TODO_SERVER"] {
            guard let url = URL(string: value) else { throw .notAURL(value) }
            server = url
        }
        token = token ?? environment["TODO_TOKEN"]
        if server != nil, token == nil { throw .serverWithoutToken }
    }
}
