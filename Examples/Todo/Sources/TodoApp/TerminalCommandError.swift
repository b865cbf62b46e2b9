/// A line the terminal program cannot run.
enum TerminalCommandError: Error, CustomStringConvertible {
    /// An empty line.
    case empty
    /// A command it does not know, or with the wrong number of words.
    case unknown(String)
    /// A row that is not a number from 1.
    case notARow(String)
    /// A row number beyond the list.
    case noSuchRow(Int)
    /// A list that does not exist.
    case noSuchList(String)
    /// `sync` without a server.
    case noServer

    var description: String {
        switch self {
        case .empty: "type a command, or help"
        case .unknown(let line): "not a command: \(line) (type help)"
        case .notARow(let word): "not a row number: \(word)"
        case .noSuchRow(let row): "no row \(row)"
        case .noSuchList(let name): "no list named \(name)"
        case .noServer: "no server: start TodoApp with --server URL --token TOKEN"
        }
    }
}
