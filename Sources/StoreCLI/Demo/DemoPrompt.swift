import Foundation

/// `store demo --interactive`: reads edits, one per line, until `quit` or the end of input.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
@MainActor
enum DemoPrompt {
    static func run(_ session: DemoSession) async {
        print("commands: add CATEGORY TITLE · edit ID TITLE · move ID CATEGORY [POSITION] · done ID · delete ID · list · quit")
        while true {
            print("> ", terminator: "")
            fflush(nil)
            guard let line = await Task.detached(operation: { readLine() }).value else { return }
            let words = line.split(separator: " ").map(String.init)
            guard let verb = words.first else { continue }
            if verb == "quit" || verb == "exit" { return }
            if verb == "list" {
                session.printState()
                continue
            }
            guard let edit = edit(verb, Array(words.dropFirst())) else {
                print("  not understood: \(line)")
                continue
            }
            await session.perform(edit)
        }
    }

    /// The edit a typed line asks for, or `nil`.
    static func edit(_ verb: String, _ arguments: [String]) -> DemoEdit? {
        let id = arguments.first.flatMap { Int64($0.trimmingCharacters(in: CharacterSet(charactersIn: "#"))) }
        let rest = arguments.dropFirst().joined(separator: " ")
        switch (verb, id) {
        case ("add", _) where arguments.count >= 2: return .add(title: rest, category: arguments[0])
        case ("edit", let id?) where !rest.isEmpty: return .rename(id: id, title: rest)
        case ("move", let id?) where arguments.count >= 2:
            return .move(id: id, category: arguments[1], position: arguments.count > 2 ? Int(arguments[2]) : nil)
        case ("done", let id?): return .complete(id: id)
        case ("delete", let id?): return .delete(id: id)
        default: return nil
        }
    }
}
