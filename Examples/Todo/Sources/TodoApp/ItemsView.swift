#if canImport(SwiftUI)
import SQLiteStore
import SwiftUI
import TodoKit

/// The app's screen: every item, sectioned by list, each row with a view model of its own; a
/// bar that adds lists and items; and, with a server, the sync's state.
struct ItemsView: View {
    let screen: TodoScreen
    let sync: TodoSync?

    var body: some View {
        NavigationStack {
            List {
                ForEach(Array(screen.items.sections.enumerated()), id: \.offset) { section in
                    Section(section.element.name ?? "") {
                        ForEach(screen.objectIDs(inSection: section.offset), id: \.self) { objectID in
                            ItemRowView(row: screen.row(for: objectID), lists: screen.lists)
                        }
                    }
                }
            }
            .overlay {
                if let failure = screen.items.failure {
                    Text("The list stopped: \(String(describing: failure))")
                } else if screen.items.isEmpty, !screen.items.isLoading {
                    Text("No items yet")
                }
            }
            .safeAreaInset(edge: .bottom) {
                AddBar(screen: screen)
            }
            .toolbar {
                ToolbarItem {
                    if let sync { SyncStatusView(sync: sync) }
                }
            }
            .navigationTitle("To-do")
        }
    }
}
#endif
