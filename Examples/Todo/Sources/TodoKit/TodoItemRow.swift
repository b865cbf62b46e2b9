import Foundation
import Observation
import SQLiteStore

/// The view model of one row: one item, followed as it changes (here or on another device),
/// with the commands a row offers. The screen makes one per row (``TodoScreen/row(for:)``); a
/// row view keeps it in `@State`, calls `start()` when it shows and `stop()` when it goes.
///
/// Each property is bound to the item's values and changes only when its value does; the
/// list's name is read through `TodoItem.list`, so renaming the list shows here too. When the
/// item is deleted (by its ``deleteItem`` command, with its list, or on another device) `isDeleted`
/// becomes true and observation stops.
@MainActor
@Observable
public final class TodoItemRow: StoreViewModel<TodoItem> {
    /// The item's title.
    public private(set) var title = ""
    /// Whether the item is done.
    public private(set) var isDone = false
    /// The item's notes.
    public private(set) var notes = ""
    /// The name of the item's list.
    public private(set) var listName = ""

    /// Marks the item done, or open again.
    @ObservationIgnored public private(set) lazy var toggleDone: Command<Void, Void> = Command(owner: self) { row, _ in
        try await row.save { $0.done.toggle() }
    }

    /// Gives the item a new title (trimmed; a blank one is refused with ``TodoInputError/blankTitle``).
    @ObservationIgnored public private(set) lazy var rename: Command<String, Void> = Command(owner: self) { row, title in
        let title = try TodoInputError.trimmed(title, orThrow: .blankTitle)
        try await row.save { $0.title = title }
    }

    /// Replaces the item's notes.
    @ObservationIgnored public private(set) lazy var editNotes: Command<String, Void> = Command(owner: self) { row, notes in
        try await row.save { $0.notes = notes }
    }

    /// Moves the item to the list with the given key.
    @ObservationIgnored public private(set) lazy var moveToList: Command<UUID, Void> = Command(owner: self) { row, listID in
        try await row.save { $0.listID = listID }
    }

    /// Deletes the item; the row then reports its deletion.
    @ObservationIgnored public private(set) lazy var deleteItem: Command<Void, Void> = Command(owner: self) { row, _ in
        try await row.delete()
    }

    /// A view model for the item `objectID` of `store`; `start()` reads it.
    public override init(store: Store, objectID: ObjectID) {
        super.init(store: store, objectID: objectID)
        bindModel(\.title) { row, title in row.title = title }
        bindModel(\.done) { row, done in row.isDone = done }
        bindModel(\.notes) { row, notes in row.notes = notes }
        bindModel(TodoItem.list, \.name) { row, name in row.listName = name ?? "" }
    }
}
