import Logging

extension ChangeLog {
    /// The same log, logging its statements to `logger` (a request's, with its id).
    func logging(to logger: Logger) -> ChangeLog { ChangeLog(client: client, logger: logger) }
}
