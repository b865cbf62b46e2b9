/// Launch arguments `TodoApp` cannot run with.
enum LaunchOptionsError: Error, CustomStringConvertible {
    /// An option was given without its value.
    case missingValue(String)
    /// An option `TodoApp` does not know.
    case unknownOption(String)
    /// A server address that is not an `http` or `https` URL.
    case notAURL(String)
    /// A server was given without the token to sync with it.
    case serverWithoutToken

    var description: String {
        switch self {
        case .missingValue(let option): "\(option) needs a value"
        case .unknownOption(let option): "unknown option \(option)"
        case .notAURL(let text): "not an http(s) URL: \(text)"
        case .serverWithoutToken: "--server needs --token (or TODO_TOKEN)"
        }
    }
}
