import Foundation
import Testing

@testable import SQLiteStoreResults

/// The change appending rows to a section (the rest after a first page) holds them as their
/// range, and is the same change set as the one listing them: equal, hashed alike, listing
/// the same `inserts`, applied alike.
@Suite struct AppendedChangeSetTests {
    let appended = ChangeSet(sectionInserts: [2, 3], appending: 4..<9, toSection: 1)
    let listed = ChangeSet(sectionInserts: [2, 3], inserts: (4..<9).map { IndexPath(row: $0, section: 1) })

    @Test func itIsTheChangeSetListingItsRows() throws {
        #expect(appended == listed && listed == appended)
        #expect(appended.hashValue == listed.hashValue)
        #expect(appended.inserts == listed.inserts)
        #expect(appended != ChangeSet(sectionInserts: [2, 3], inserts: (4..<8).map { IndexPath(row: $0, section: 1) }))
        #expect(appended != ChangeSet(sectionInserts: [2, 3], appending: 4..<9, toSection: 0))
        #expect(ChangeSet(sectionInserts: [], appending: 0..<0, toSection: 0).isEmpty)
        let old = SectionedSnapshot(sections: [.init(name: "a", ids: [1]), .init(name: "b", ids: [2, 3, 4, 5])])
        let new = SectionedSnapshot(sections: [
            .init(name: "a", ids: [1]), .init(name: "b", ids: [2, 3, 4, 5, 6, 7, 8, 9, 10]), .init(name: "c", ids: [11]),
            .init(name: "d", ids: [12]),
        ])
        #expect(try appended.applied(to: old, new: new) == new)
    }

    @Test func membershipNeedsNoList() {
        #expect(appended.insertedRows.containsSorted(IndexPath(row: 8, section: 1)))
        #expect(!appended.insertedRows.containsSorted(IndexPath(row: 9, section: 1)))
        #expect(!appended.insertedRows.containsSorted(IndexPath(row: 4, section: 0)))
        #expect(!appended.insertedRows.containsSorted(IndexPath(indexes: [1, 4, 0])))
        #expect(listed.insertedRows.containsSorted(IndexPath(row: 4, section: 1)))
    }
}
