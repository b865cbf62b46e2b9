#if canImport(SwiftUI)
import SQLiteStore
import SwiftUI
import TodoKit

/// One row: its item's state and title, which the row's view model keeps current, and the
/// row's commands: toggle, rename (edit the title and submit), move to another list, delete.
struct ItemRowView: View {
    @State private var row: TodoItemRow
    @State private var editedTitle = ""
    let lists: LiveResults<TodoList>

    /// SwiftUI keeps the first view model it is given for the row and drops the others unread.
    init(row: TodoItemRow, lists: LiveResults<TodoList>) {
        _row = State(initialValue: row)
        self.lists = lists
    }

    var body: some View {
        HStack {
            Button {
                row.toggleDone.start()
            } label: {
                Image(systemName: row.isDone ? "checkmark.circle.fill" : "circle")
            }
            .buttonStyle(.plain)
            TextField("Title", text: $editedTitle)
                .onSubmit { row.rename.start(editedTitle) }
            Picker("List", selection: listSelection) {
                ForEach(lists) { list in
                    Text(list.name).tag(Optional(list.id))
                }
            }
            .labelsHidden()
            Button(role: .destructive) {
                row.deleteItem.start()
            } label: {
                Image(systemName: "trash")
            }
            .buttonStyle(.plain)
        }
        .task {
            try? row.start()  // a failure shows in row.lastError
            editedTitle = row.title
        }
        .onChange(of: row.title) { _, title in editedTitle = title }
        .onDisappear { row.stop() }
    }

    /// The item's list; choosing another moves the item there.
    private var listSelection: Binding<UUID?> {
        Binding(
            get: { row.object?.listID },
            set: { listID in
                if let listID, listID != row.object?.listID { row.moveToList.start(listID) }
            })
    }
}
#endif
