import Foundation

/// The JSON of an answer of the server, its keys sorted: every server process writes the same
/// bytes for the same answer (`JSONEncoder` orders keys differently from one process to
/// another), so a cache or a signature in front of the servers sees one answer, not several.
func answerJSON(_ answer: some Encodable) throws -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    return try encoder.encode(answer)
}
