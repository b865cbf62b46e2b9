import ArgumentParser
import Foundation

extension URL {
    /// The sync server URL that `--server` gave; a usage error unless it is an http or https URL.
    init(syncServer text: String) throws {
        guard let url = URL(string: text), ["http", "https"].contains(url.scheme), url.host != nil else {
            throw ValidationError("--server must be an http or https URL, not '\(text)'")
        }
        self = url
    }
}
