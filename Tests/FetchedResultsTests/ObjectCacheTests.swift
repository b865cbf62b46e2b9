import Testing

@testable import SQLiteStoreResults

/// What a controller with a batch size keeps of the objects it read.
@Suite struct ObjectCacheTests {
    private static func notes(_ rowIDs: some Sequence<Int64>) -> [Int64: Note] {
        Dictionary(uniqueKeysWithValues: rowIDs.map { ($0, Note(id: $0, title: "note \($0)")) })
    }

    @Test("Evicting the oldest batch keeps the rows of the batch just read, which changes may have moved there from it")
    func evictionKeepsTheBatchJustRead() throws {
        var cache = ObjectCache<Note>(batchSize: 1)
        let limit = try #require(cache.limit)
        cache.store(batch: Array(0..<Int64(limit)), models: Self.notes(0..<Int64(limit)))
        // Row 5 moved: it is read again with a new batch, which goes over the limit.
        cache.store(batch: [5, Int64(limit)], models: Self.notes([5, Int64(limit)]))
        let slot = try #require(cache.slot(of: 5), "the row just read was evicted with the oldest batch")
        #expect(cache.object(atSlot: slot).title == "note 5")
        #expect(cache.slot(of: 4) == nil, "the rest of the oldest batch is evicted")
        #expect(cache.slot(of: Int64(limit)) != nil)
    }
}
