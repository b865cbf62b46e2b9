import Foundation
import Testing

@testable import SQLiteStoreCore
@testable import SQLiteStoreSync

/// The subsets a sync server lets devices subscribe to: spelled on its command line, checked
/// against the synced schema and the sharing, refused with a reason when they do not fit.
@Suite("Sync subscription declaration")
struct SyncSubsetDeclarationTests {
    private static let sharing = SyncSharing(roots: ["lists"], paths: [.init(table: "items", column: "list_id", parent: "lists")])

    @Test("Subsets as code and as the command line spells them, checked against the schema and the sharing")
    func declaration() throws {
        let subsets = [
            SyncSubset(name: "mine", kind: .ownRoots),
            SyncSubset(name: "list", kind: .root(table: "lists")),
            SyncSubset(name: "items_in", kind: .rows(table: "items", column: "list_id")),
        ]
        try SyncSubset.check(subsets, against: SyncSharingDeclarationTests.schema(), sharing: Self.sharing)
        let spelled = try ["mine=own-roots", "list=root:Lists", "items_in=rows:items.list_id"].map(SyncSubset.init(parsing:))
        #expect(spelled == subsets, "table names folded as SQLite folds them")
        #expect(spelled.map(\.takesParameter) == [false, true, true])
        #expect(spelled[2].looksAt(table: "ITEMS", column: "List_ID") && !spelled[2].looksAt(table: "lists", column: "list_id"))
    }

    @Test("A subset spelled otherwise, or that does not fit, is refused with the reason")
    func refusals() throws {
        for spelled in ["mine", "=own-roots", "x=roots", "x=root:", "x=rows:items", "x=rows:.list", "x=rows:items."] {
            #expect(throws: SyncSharingError.self, "\(spelled)") { try SyncSubset(parsing: spelled) }
        }
        let schema = try SyncSharingDeclarationTests.schema()
        let unfit: [([SyncSubset], SyncSharing?, String)] = [
            ([SyncSubset(name: "mine", kind: .ownRoots)], nil, "own-roots needs share roots"),
            ([SyncSubset(name: "x", kind: .root(table: "items"))], Self.sharing, "\"items\" is not a share root"),
            (
                [SyncSubset(name: "x", kind: .rows(table: "items", column: "title"))], nil,
                "column \"title\" of table \"items\" is not synced"
            ),
            ([SyncSubset(name: "x", kind: .ownRoots), SyncSubset(name: "x", kind: .ownRoots)], Self.sharing, "declared twice"),
            ([SyncSubset(name: "", kind: .ownRoots)], Self.sharing, "1 to 256 bytes"),
        ]
        for (subsets, sharing, reason) in unfit {
            let error = #expect(throws: SyncSharingError.self) { try SyncSubset.check(subsets, against: schema, sharing: sharing) }
            #expect(error?.description.contains(reason) == true, "\(error?.description ?? "") names \(reason)")
        }
    }
}
