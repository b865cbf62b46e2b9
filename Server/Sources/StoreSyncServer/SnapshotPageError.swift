/// A snapshot page PostgreSQL could not write: a stored key or value is not a value's JSON.
struct SnapshotPageError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) { self.description = description }
}
