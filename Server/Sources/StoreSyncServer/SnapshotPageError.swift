/// A snapshot page the server cannot write from PostgreSQL's answer: its arrays differ in
/// length, or its rows come out of (table, key) order. (A stored key or value that is not a
/// value's JSON fails with the decoder's own error.)
struct SnapshotPageError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) { self.description = description }
}
