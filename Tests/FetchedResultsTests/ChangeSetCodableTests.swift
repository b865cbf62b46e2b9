import Foundation
import SQLiteStoreResults
import Testing

/// Normal form, Codable and description of `ChangeSet`.
@Suite("ChangeSet value")
struct ChangeSetCodableTests {
    @Test func initSortsEveryArray() {
        let changeSet = ChangeSet(
            sectionDeletes: [3, 1], sectionInserts: [2, 0], deletes: [path(1, 0), path(0, 4)],
            inserts: [path(0, 2), path(0, 1)],
            moves: [.init(from: path(0, 3), to: path(0, 0)), .init(from: path(0, 1), to: path(0, 5))],
            updates: [path(2, 0), path(0, 0)]
        )
        #expect(changeSet.sectionDeletes == [1, 3] && changeSet.sectionInserts == [0, 2])
        #expect(changeSet.deletes == [path(0, 4), path(1, 0)] && changeSet.inserts == [path(0, 1), path(0, 2)])
        #expect(changeSet.moves.map(\.from) == [path(0, 1), path(0, 3)])
        #expect(changeSet.updates == [path(0, 0), path(2, 0)])
        #expect(!changeSet.isEmpty && ChangeSet().isEmpty && ChangeSet.empty == ChangeSet())
    }

    @Test func codableRoundTrip() throws {
        var generator = SnapshotGenerator(random: SeededGenerator(seed: randomizedTestSeed))
        for _ in 0..<200 {
            let changeSet = ChangeSet(from: generator.snapshot(), to: generator.snapshot(), updated: generator.updatedIDs())
            let decoded = try JSONDecoder().decode(ChangeSet.self, from: JSONEncoder().encode(changeSet))
            #expect(decoded == changeSet)
        }
    }

    @Test func indexPathsAreCodedAsIndexArrays() throws {
        let changeSet = ChangeSet(deletes: [path(0, 1)], moves: [.init(from: path(1, 2), to: path(0, 0))])
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        #expect(
            String(decoding: try encoder.encode(changeSet), as: UTF8.self) == #"{"deletes":[[0,1]],"inserts":[],"#
                + #""moves":[{"from":[1,2],"isChanged":false,"to":[0,0]}],"sectionDeletes":[],"sectionInserts":[],"updates":[]}"#)
    }

    @Test func decodingNormalizes() throws {
        let json = #"{"deletes": [[0, 2], [0, 1]], "moves": [{"from": [0, 3], "to": [0, 0], "isChanged": true}]}"#
        let decoded = try JSONDecoder().decode(ChangeSet.self, from: Data(json.utf8))
        #expect(
            decoded
                == ChangeSet(
                    deletes: [path(0, 1), path(0, 2)],
                    moves: [.init(from: path(0, 3), to: path(0, 0), isChanged: true)]))
    }

    @Test func descriptionListsNonEmptyParts() {
        #expect(ChangeSet.empty.description == "ChangeSet(empty)")
        let changeSet = ChangeSet(
            sectionInserts: [2], deletes: [path(0, 3)],
            moves: [.init(from: path(0, 1), to: path(1, 0), isChanged: true)], updates: [path(0, 4)])
        #expect(
            changeSet.description
                == "ChangeSet(sectionInserts: [2], deletes: [0.3], moves: [0.1→1.0 changed], updates: [0.4])")
    }
}
