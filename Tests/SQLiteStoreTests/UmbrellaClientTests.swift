import Foundation
import Observation
import SQLiteStore
import Testing

/// A client as an app writes it: Foundation, Observation and the umbrella module in one file,
/// the main types named unqualified and qualified by the module that declares them. Any
/// clash of a name with Foundation's or Observation's, or a module that shadows one of its
/// own types, fails to compile here.
@MainActor
@Suite struct UmbrellaClientTests {
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    struct Task: StoreModel, Equatable {
        static let tableName = "task"
        var id: Int64?
        var title: String
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Observable final class TaskViewModel: StoreViewModel<Task> {
        var title = ""
        override init(store: Store, id: Int64) {
            super.init(store: store, id: id)
            bindModel(\.title) { viewModel, title in viewModel.title = title }
        }
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func everyMainTypeIsReachableUnqualifiedAndQualified() throws {
        let store: SQLiteStoreCore.Store = try Store.inMemory()
        try store.write { (db: SQLiteStoreCore.Database) in
            try db.execute(sql: "CREATE TABLE task(id INTEGER PRIMARY KEY, title TEXT NOT NULL)")
            var task = Task(title: "Write docs")
            try db.insert(&task)
        }
        let request: SQLiteStoreCore.StoreRequest<Task> = StoreRequest<Task>()
            .filter(SQLiteStoreCore.Column("title") != "")
            .order(Column("title").ascending)
        let tasks = try store.read { db in try db.fetch(request) }
        #expect(tasks.map(\.title) == ["Write docs"])

        let id: SQLiteStoreCore.ObjectID = ObjectID(table: "task", rowID: 1)
        let controller: SQLiteStoreResults.FetchedResultsController<Task> =
            FetchedResultsController(store: store, request: request)
        try controller.performFetch()
        #expect(controller.indexPath(for: id) == IndexPath(row: 0, section: 0))
        let empty: SQLiteStoreResults.ChangeSet = ChangeSet()
        #expect(empty.isEmpty)

        let viewModel = TaskViewModel(store: store, id: 1)
        try viewModel.start()
        #expect(viewModel.title == "Write docs")
        let source: SQLiteStoreViewModels.ArrayDataSource<String> = ArrayDataSource(sections: [["a"]])
        #expect(source.numberOfSections == 1)
        let command: SQLiteStoreViewModels.Command<Void, Int> = Command { 1 }
        #expect(command.status == .idle)
        let error: (any Error)? = nil as SQLiteStoreCore.StoreError?
        #expect(error == nil)
    }
}
