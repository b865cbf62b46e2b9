import Foundation
import SQLiteStoreSyncProtocol
import SyncServerHarness

/// A new device's work on a snapshot page outside SQLite, without a server: reading a page of
/// `rows` notes from its JSON, with `SyncSnapshotPage(json:)` as a device does and with
/// `JSONDecoder` beside it, and comparing keys by their bytes in place (`hasSameUTF8`,
/// `utf8Precedes`) beside the same comparisons through the `utf8` views, element by element.
struct WireDecoding {
    let rows: Int
    let iterations: Int

    /// What one run measured.
    struct Result: CustomStringConvertible {
        let rows: Int
        let bytes: Int
        /// `SyncSnapshotPage(json:)`'s times, then `JSONDecoder`'s.
        let reading: (reader: Percentiles, decoder: Percentiles)
        /// Nanoseconds per comparison: in place, then through the `utf8` views.
        let equality: (inPlace: Double, views: Double)
        let order: (inPlace: Double, views: Double)

        var description: String {
            let perCompare = { (value: Double) in String(format: "%.1f ns", value) }
            return """
                a snapshot page of \(rows) rows (\(bytes) bytes of JSON) read: \(reading.reader); by JSONDecoder: \(reading.decoder)
                    keys compared for equality: \(perCompare(equality.inPlace)) in place, \(perCompare(equality.views)) through the utf8 views
                    keys compared for order: \(perCompare(order.inPlace)) in place, \(perCompare(order.views)) through the utf8 views
                """
        }
    }

    func run() throws -> Result {
        let notes = Note.generate(count: rows, seed: 3)
        let data = try JSONEncoder().encode(page(of: notes))
        let reader = try measure { try SyncSnapshotPage(json: data) }
        let decoder = try measure { try JSONDecoder().decode(SyncSnapshotPage.self, from: data) }
        // The keys as a device holds them, each beside a copy of itself and beside the next key.
        let keys = notes.map(\.id)
        let copies = keys.map { String(decoding: Array($0.utf8), as: UTF8.self) }
        let equality = try compare(keys, copies, inPlace: { $0.hasSameUTF8(as: $1) }, views: { $0.utf8.elementsEqual($1.utf8) })
        let order = try compare(
            keys, copies, inPlace: { $0.utf8Precedes($1) }, views: { $0.utf8.lexicographicallyPrecedes($1.utf8) })
        return Result(rows: rows, bytes: data.count, reading: (reader, decoder), equality: equality, order: order)
    }

    /// The times of `iterations` reads of a page by `read`; throws when one loses rows.
    private func measure(_ read: () throws -> SyncSnapshotPage) throws -> Percentiles {
        let clock = ContinuousClock()
        var durations: [Duration] = []
        for _ in 0..<iterations {
            var page: SyncSnapshotPage?
            durations.append(try clock.measure { page = try read() })
            guard page?.rows.count == rows else { throw BenchmarkFailure(description: "a page read lost rows") }
        }
        return Percentiles(durations)
    }

    /// The page a server writes for `notes` inserted by one device.
    private func page(of notes: [Note]) -> SyncSnapshotPage {
        let rows = notes.enumerated().map { index, note in
            let stamp = SyncSnapshotStamp(hlc: 1_800_000_000_000 << 16 + Int64(index), device: 0)
            return SyncSnapshotRow(
                table: Note.tableName, key: .text(note.id), deleted: nil,
                cells: [
                    SyncSnapshotCell(column: "body", value: .text(note.body), stamp: stamp),
                    SyncSnapshotCell(column: "score", value: .integer(note.score), stamp: stamp),
                    SyncSnapshotCell(column: "title", value: .text(note.title), stamp: stamp),
                ])
        }
        return SyncSnapshotPage(
            schemaVersion: 1, cursor: Int64(rows.count), devices: [UUID().uuidString.lowercased()], rows: rows, next: nil)
    }

    /// Nanoseconds per comparison of each key with its copy and with the next key, both ways;
    /// throws when the two ways disagree.
    private func compare(
        _ keys: [String], _ copies: [String], inPlace: (String, String) -> Bool, views: (String, String) -> Bool
    ) throws -> (inPlace: Double, views: Double) {
        let pairs = keys.indices.flatMap { index in [(index, index), (index, (index + 1) % keys.count)] }
        guard pairs.allSatisfy({ inPlace(keys[$0], copies[$1]) == views(keys[$0], copies[$1]) }) else {
            throw BenchmarkFailure(description: "the byte comparisons disagree")
        }
        func nanoseconds(_ compare: (String, String) -> Bool) -> (Double, trues: Int) {
            var trues = 0
            let elapsed = ContinuousClock().measure {
                for _ in 0..<iterations {
                    for (a, b) in pairs where compare(keys[a], copies[b]) { trues += 1 }
                }
            }
            return (elapsed.milliseconds * 1e6 / Double(pairs.count * iterations), trues)
        }
        let (fast, slow) = (nanoseconds(inPlace), nanoseconds(views))
        guard fast.trues == slow.trues else { throw BenchmarkFailure(description: "the byte comparisons disagree") }
        return (fast.0, slow.0)
    }
}
