// Part of the demo's sync scene: built with the SyncCommands trait only (see Package.swift and SyncBuild).
#if SyncCommands
import SQLiteStoreCore

/// A row of the example schema's `note` table, the table the demo's sync scene syncs with
/// `note_list`, the lists that people share.
struct DemoNote: StoreModel, Equatable {
    static let tableName = "note"
    var id: String
    var text: String
    var color: String
    /// The note's list (`note.list_id`); `nil` for a note in no list.
    var listID: String?

    private enum CodingKeys: String, CodingKey {
        case id, text, color
        case listID = "list_id"
    }

    /// "text · color", as the scene lists a note.
    var line: String { "\(text) · \(color)" }

    /// The note's list: `note.list_id` refers to `note_list.id`.
    static let list = ToOneLink(name: "list", childTable: "note", foreignKey: "list_id", parentTable: "note_list")

    /// Every note, sectioned by its list's name, by text inside a list.
    static let byListAndText = StoreRequest<DemoNote>()
        .order(Column("name", through: list).ascending, Column("text").ascending)
        .sectioned(by: Column("name", through: list))
}
#endif
