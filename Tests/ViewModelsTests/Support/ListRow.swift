import SQLiteStoreResults
import SQLiteStoreViewModels

/// A row of the data-source tests: an identity and a version that edits in place bump.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
struct ListRow: Equatable, Sendable {
    let id: Int
    var version = 0
}

@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
extension DataSource where Item == ListRow {
    /// The identities of the rows, section by section, as the change sets describe them.
    var snapshot: SectionedSnapshot<Int> {
        SectionedSnapshot(sections: allItems.map { .init(ids: $0.map(\.id)) })
    }
}

/// Records every change set a data source publishes and checks each one against the
/// content before and after it with `applied(to:new:)`.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
@MainActor
final class ChangeSetChecker {
    private(set) var last: SectionedSnapshot<Int>
    private(set) var changeSets: [ChangeSet] = []
    private(set) var failures: [String] = []
    private var subscription: ChangeSetSubscription?

    init(_ dataSource: some DataSource<ListRow>) {
        last = dataSource.snapshot
        subscription = dataSource.changes.subscribe { [weak self, weak dataSource] changeSet in
            guard let self, let dataSource else { return }
            self.check(changeSet, new: dataSource.snapshot)
        }
    }

    private func check(_ changeSet: ChangeSet, new: SectionedSnapshot<Int>) {
        changeSets.append(changeSet)
        do {
            let applied = try changeSet.applied(to: last, new: new)
            if applied != new { failures.append("\(changeSet) made \(applied), expected \(new)") }
        } catch {
            failures.append("\(changeSet) does not apply to \(last): \(error)")
        }
        last = new
    }
}
