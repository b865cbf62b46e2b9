/// One command of the terminal program, as typed: `add Groceries "Oat milk"`, `toggle 2`.
/// Rows are numbered as the last printed list shows them, from 1.
enum TerminalCommand: Equatable {
    case show
    case help
    case quit
    case sync
    case addList(name: String)
    case addItem(list: String, title: String)
    case toggle(row: Int)
    case rename(row: Int, title: String)
    case note(row: Int, text: String)
    case move(row: Int, list: String)
    case delete(row: Int)

    static let helpText = """
        commands (rows are numbered as the list shows them):
          list NAME            add a list
          add LIST TITLE       add an item to a list (made if there is none of that name)
          toggle ROW           mark an item done, or open again
          rename ROW TITLE     give an item a new title
          note ROW TEXT        replace an item's notes
          move ROW LIST        move an item to another list
          delete ROW           delete an item
          sync                 sync with the server now (--server)
          show | help | quit
        words with spaces go in double quotes: add "Home chores" "Water the plants"
        """

    /// The command that `words` spell.
    init(words: [String]) throws(TerminalCommandError) {
        guard let name = words.first else { throw .empty }
        let arguments = Array(words.dropFirst())
        let rest = arguments.dropFirst().joined(separator: " ")
        switch (name, arguments.count) {
        case ("show", 0): self = .show
        case ("help", 0): self = .help
        case ("quit", 0), ("exit", 0): self = .quit
        case ("sync", 0): self = .sync
        case ("list", 1...): self = .addList(name: arguments.joined(separator: " "))
        case ("add", 2...): self = .addItem(list: arguments[0], title: rest)
        case ("toggle", 1): self = .toggle(row: try Self.row(arguments[0]))
        case ("rename", 2...): self = .rename(row: try Self.row(arguments[0]), title: rest)
        case ("note", 1...): self = .note(row: try Self.row(arguments[0]), text: rest)
        case ("move", 2...): self = .move(row: try Self.row(arguments[0]), list: rest)
        case ("delete", 1): self = .delete(row: try Self.row(arguments[0]))
        default: throw .unknown(words.joined(separator: " "))
        }
    }

    /// A row number.
    private static func row(_ word: String) throws(TerminalCommandError) -> Int {
        guard let row = Int(word), row > 0 else { throw .notARow(word) }
        return row
    }

    /// The words of `line`, split at spaces, with "double-quoted words" kept together.
    static func words(of line: String) -> [String] {
        var words: [String] = []
        var word = ""
        var quoted = false
        var started = false
        for character in line {
            if character == "\"" {
                quoted.toggle()
                started = true
            } else if character.isWhitespace && !quoted {
                if started { words.append(word) }
                word = ""
                started = false
            } else {
                word.append(character)
                started = true
            }
        }
        if started { words.append(word) }
        return words
    }
}
