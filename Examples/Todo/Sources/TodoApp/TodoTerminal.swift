import Foundation
import SQLiteStore
import TodoKit

/// The terminal program: prints the sectioned list, runs one command given as arguments or
/// each line of standard input, and prints the list again once it shows the command's write.
/// With a server, it syncs at start and after each command.
@MainActor
struct TodoTerminal {
    let session: AppSession
    private var screen: TodoScreen { session.screen }

    /// Runs the program; returns its exit status: 0, 1 when a command failed, 2 for bad usage.
    static func run(arguments: [String], environment: [String: String]) async -> Int32 {
        let options: LaunchOptions
        do {
            options = try LaunchOptions(arguments: arguments, environment: environment)
        } catch {
            print("error: \(error)\n\(LaunchOptions.usage)")
            return 2
        }
        do {
            let terminal = TodoTerminal(session: try AppSession(options: options, defaultPath: "todo.sqlite"))
            return try await terminal.run(command: options.command)
        } catch {
            print("error: \(error)")
            return 1
        }
    }

    private func run(command: [String]) async throws -> Int32 {
        try await screen.waitUntilCurrent()
        if session.sync != nil { await synchronize() }
        guard command.isEmpty else {
            let succeeded = await execute(line: command)
            printList()
            return succeeded ? 0 : 1
        }
        printList()
        print("type a command (help lists them), or quit")
        for await line in StandardInputLines.stream() {
            let words = TerminalCommand.words(of: line)
            if words.isEmpty { continue }
            if words == ["quit"] || words == ["exit"] { break }
            _ = await execute(line: words)
            printList()
        }
        return 0
    }

    /// Runs the command `words` spell and, with a server, syncs; returns whether it succeeded.
    private func execute(line words: [String]) async -> Bool {
        do {
            let command = try TerminalCommand(words: words)
            try await execute(command)
            if session.sync != nil, command != .sync { await synchronize() }
            try await screen.waitUntilCurrent()
            return true
        } catch {
            print("error: \(error)")
            return false
        }
    }

    private func execute(_ command: TerminalCommand) async throws {
        switch command {
        case .show, .quit: break
        case .help: print(TerminalCommand.helpText)
        case .sync:
            guard session.sync != nil else { throw TerminalCommandError.noServer }
            await synchronize()
        case .addList(let name):
            try await screen.addList.execute(name).get()
        case .addItem(let listName, let title):
            var list = screen.list(named: listName)
            if list == nil { list = try await screen.addList.execute(listName).get() }
            guard let list else { throw TerminalCommandError.noSuchList(listName) }
            try await screen.addItem.execute(TodoItem.Draft(listID: list.id, title: title)).get()
        case .toggle(let number):
            try await onRow(number) { row in await row.toggleDone.execute() }
        case .rename(let number, let title):
            try await onRow(number) { row in await row.rename.execute(title) }
        case .note(let number, let text):
            try await onRow(number) { row in await row.editNotes.execute(text) }
        case .move(let number, let listName):
            guard let list = screen.list(named: listName) else { throw TerminalCommandError.noSuchList(listName) }
            try await onRow(number) { row in await row.moveToList.execute(list.id) }
        case .delete(let number):
            try await onRow(number) { row in await row.deleteItem.execute() }
        }
    }

    /// Runs `command` on the view model of row `number` (from 1, as printed), started for it.
    private func onRow(_ number: Int, _ command: (TodoItemRow) async -> CommandOutcome<Void>) async throws {
        guard let objectID = screen.items.objectID(at: number - 1) else { throw TerminalCommandError.noSuchRow(number) }
        let row = screen.row(for: objectID)
        try row.start()
        defer { row.stop() }
        try await command(row).get()
    }

    /// Syncs once and says what moved, or why it failed: what was not sent stays in the outbox.
    private func synchronize() async {
        guard let sync = session.sync else { return }
        do {
            let progress = try await sync.synchronize()
            print("sync: sent \(progress.pushed), received \(progress.pulled)")
        } catch {
            let waiting = (try? sync.pendingChangeCount()).map { "; \($0) changes wait to be sent" } ?? ""
            print("sync failed: \(error)\(waiting)")
        }
    }

    private func printList() {
        print(TerminalOutline.lines(of: screen.outline).joined(separator: "\n"))
    }
}
