#if canImport(SwiftUI)
import SQLiteStore
import SwiftUI
import TodoKit

/// Adds a list, or an item to the chosen list. The lists come from `@LiveQuery`, in the
/// environment's store: the one-line way to show a request's live results in a view.
struct AddBar: View {
    let screen: TodoScreen
    @LiveQuery(TodoList.byName) private var lists
    @State private var listID: UUID?
    @State private var newItem = ""
    @State private var newList = ""

    var body: some View {
        VStack {
            HStack {
                Picker("List", selection: $listID) {
                    Text("Choose a list").tag(UUID?.none)
                    ForEach(lists) { list in
                        Text(list.name).tag(Optional(list.id))
                    }
                }
                .labelsHidden()
                TextField("New item", text: $newItem)
                    .onSubmit { addItem() }
            }
            TextField("New list", text: $newList)
                .onSubmit { addList() }
        }
        .padding()
    }

    private func addItem() {
        guard let listID else { return }
        let title = newItem
        newItem = ""
        screen.addItem.start(TodoItem.Draft(listID: listID, title: title))
    }

    private func addList() {
        let name = newList
        newList = ""
        Task {
            if let list = await screen.addList.execute(name).output { listID = list.id }
        }
    }
}
#endif
