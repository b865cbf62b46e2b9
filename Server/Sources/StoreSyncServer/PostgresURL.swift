import Foundation
import PostgresNIO

/// The parts of a `postgres://user[:password]@host[:port]/database` URL; `?sslmode=require`
/// asks for TLS, which is off otherwise.
struct PostgresURL {
    let host: String
    let port: Int
    let user: String
    let password: String?
    let database: String?
    let requiresTLS: Bool

    init(_ url: String) throws {
        guard let components = URLComponents(string: url), ["postgres", "postgresql"].contains(components.scheme),
            let host = components.host, let user = components.user
        else {
            throw SyncServerSetupError("not a postgres://user[:password]@host[:port]/database URL: \(url)")
        }
        let database = String(components.path.drop(while: { $0 == "/" }))
        self.host = host
        port = components.port ?? 5432
        self.user = user
        password = components.password
        self.database = database.isEmpty ? nil : database
        requiresTLS = components.queryItems?.contains { $0.name == "sslmode" && $0.value == "require" } == true
    }
}

extension PostgresClient.Configuration {
    /// A pool's configuration from a `postgres://user[:password]@host[:port]/database` URL,
    /// without TLS (`?sslmode=require` asks for it).
    public init(url: String) throws {
        let parts = try PostgresURL(url)
        self.init(
            host: parts.host, port: parts.port, username: parts.user, password: parts.password, database: parts.database,
            tls: parts.requiresTLS ? .require(.makeClientConfiguration()) : .disable)
    }
}

extension PostgresConnection.Configuration {
    /// One connection's configuration from the same URL, for a one-off command: a pool
    /// (`PostgresClient`) must be running before it lends a connection, and a command that
    /// starts one only to make one transaction races its start.
    public init(url: String) throws {
        let parts = try PostgresURL(url)
        self.init(
            host: parts.host, port: parts.port, username: parts.user, password: parts.password, database: parts.database,
            tls: parts.requiresTLS ? .require(try NIOSSLContext(configuration: .makeClientConfiguration())) : .disable)
    }
}
