#if !canImport(SwiftUI)
import Foundation

/// The entry point where there is no SwiftUI (Linux): the terminal program.
@main
enum TerminalMain {
    static func main() async {
        let status = await TodoTerminal.run(
            arguments: Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment)
        exit(status)
    }
}
#endif
