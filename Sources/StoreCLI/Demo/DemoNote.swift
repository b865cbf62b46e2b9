import SQLiteStore

/// A row of the example schema's `note` table, the table the demo's sync scene syncs.
struct DemoNote: StoreModel, Equatable {
    static let tableName = "note"
    var id: String
    var text: String
    var color: String

    /// "text · color", as the scene lists a note.
    var line: String { "\(text) · \(color)" }

    /// Every note, by text.
    static let byText = StoreRequest<DemoNote>().order(Column("text").ascending)
}
