import Foundation

/// The size of the terminal standard output goes to; 100 columns and no height limit when
/// it is not a terminal (`COLUMNS` overrides the width).
struct TerminalSize {
    let width: Int
    /// The number of lines, on a terminal.
    let height: Int?
    let isTerminal: Bool

    static var standardOutput: TerminalSize {
        let columns = ProcessInfo.processInfo.environment["COLUMNS"].flatMap(Int.init)
        var size = winsize()
        guard isatty(STDOUT_FILENO) != 0, ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else {
            return TerminalSize(width: columns ?? 100, height: nil, isTerminal: false)
        }
        return TerminalSize(width: columns ?? Int(size.ws_col), height: Int(size.ws_row), isTerminal: true)
    }
}
