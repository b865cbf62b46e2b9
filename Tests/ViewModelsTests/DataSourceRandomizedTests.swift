import Foundation
import SQLiteStoreResults
import SQLiteStoreViewModels
import Testing

/// A tree of composites over mutable leaves, edited at random: every change set the root
/// publishes must take its previous content to its new content.
@MainActor
@Suite("Composite data sources under random edits")
struct DataSourceRandomizedTests {
    /// The data sources of one run and the random edits on them.
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @MainActor
    private final class Forest {
        var random: SeededGenerator
        var nextID = 0
        let root = MultiSectionDataSource<ListRow>()
        let rows = MultiRowDataSource<ListRow>()
        let grouped: GroupedDataSource<Int, ListRow>
        /// Every leaf, attached or not; editing a detached one must not reach the root.
        var leaves: [MutableArrayDataSource<ListRow>] = []

        init(seed: UInt64) {
            random = SeededGenerator(seed: seed)
            grouped = GroupedDataSource(key: { ($0.id + $0.version) % 3 })
            leaves = (0..<6).map { _ in MutableArrayDataSource<ListRow>(sections: []) }
            for leaf in leaves {
                for _ in 0..<Int.random(in: 0...2, using: &random) {
                    leaf.insertSection(makeRows(), at: leaf.numberOfSections)
                }
            }
            root.appendChild(leaves[0])
            root.appendChild(rows)
            root.appendChild(grouped)
            rows.appendChild(leaves[1])
            rows.appendChild(leaves[2])
        }

        func makeRows() -> [ListRow] {
            (0..<Int.random(in: 0...3, using: &random)).map { _ in makeRow() }
        }

        func makeRow() -> ListRow {
            nextID += 1
            return ListRow(id: nextID)
        }

        func editAtRandom() {
            switch Int.random(in: 0..<10, using: &random) {
            case 0..<5: edit(leaves[Int.random(in: 0..<leaves.count, using: &random)])
            case 5..<7: editGroups()
            case 7: rearrange(root)
            default: rearrange(rows)
            }
        }

        private func edit(_ leaf: MutableArrayDataSource<ListRow>) {
            let paths = leaf.allItems.enumerated().flatMap { section, items in
                items.indices.map { IndexPath(row: $0, section: section) }
            }
            let sectionCount = leaf.numberOfSections
            switch Int.random(in: 0..<6, using: &random) {
            case 0 where sectionCount > 0:
                let section = Int.random(in: 0..<sectionCount, using: &random)
                let row = Int.random(in: 0...leaf.numberOfRows(inSection: section), using: &random)
                leaf.insert(makeRow(), at: IndexPath(row: row, section: section))
            case 1 where !paths.isEmpty:
                leaf.remove(at: paths[Int.random(in: 0..<paths.count, using: &random)])
            case 2 where !paths.isEmpty:
                let source = paths[Int.random(in: 0..<paths.count, using: &random)]
                let section = Int.random(in: 0..<sectionCount, using: &random)
                let rowLimit = leaf.numberOfRows(inSection: section) - (section == source.section ? 1 : 0)
                leaf.move(from: source, to: IndexPath(row: Int.random(in: 0...rowLimit, using: &random), section: section))
            case 3 where !paths.isEmpty:
                let path = paths[Int.random(in: 0..<paths.count, using: &random)]
                var row = leaf.item(at: path)
                row.version += 1
                leaf.replace(at: path, with: row)
            case 4:
                leaf.insertSection(makeRows(), at: Int.random(in: 0...sectionCount, using: &random))
            case 5 where sectionCount > 0:
                leaf.removeSection(at: Int.random(in: 0..<sectionCount, using: &random))
            default:
                break
            }
        }

        private func editGroups() {
            let paths = grouped.allItems.enumerated().flatMap { section, items in
                items.indices.map { IndexPath(row: $0, section: section) }
            }
            switch Int.random(in: 0..<3, using: &random) {
            case 1 where !paths.isEmpty:
                grouped.remove(at: paths[Int.random(in: 0..<paths.count, using: &random)])
            case 2 where !paths.isEmpty:
                let path = paths[Int.random(in: 0..<paths.count, using: &random)]
                var row = grouped.item(at: path)
                row.version += 1
                grouped.replace(at: path, with: row)
            default:
                grouped.append(makeRow())
            }
        }

        /// Adds a detached leaf to `composite` or removes one of its leaf children.
        private func rearrange<Composite: DataSource<ListRow>>(_ composite: Composite) {
            let children = composite === root ? root.childDataSources : rows.childDataSources
            let removable = children.indices.filter { index in leaves.contains { $0 === children[index] } }
            let attached = Set((root.childDataSources + rows.childDataSources).map { ObjectIdentifier($0) })
            let detached = leaves.filter { !attached.contains(ObjectIdentifier($0)) }
            if Bool.random(using: &random), let index = removable.randomElement(using: &random) {
                if composite === root { root.removeChild(at: index) } else { rows.removeChild(at: index) }
            } else if let leaf = detached.randomElement(using: &random) {
                let index = Int.random(in: 0...children.count, using: &random)
                if composite === root { root.insertChild(leaf, at: index) } else { rows.insertChild(leaf, at: index) }
            }
        }
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func everyChangeSetOfTheRootTakesItsOldContentToItsNewContent() {
        let seed = SeededGenerator.seedFromEnvironment()
        let forest = Forest(seed: seed)
        let checker = ChangeSetChecker(forest.root)
        let list = InMemoryListView(dataSource: forest.root)
        for step in 0..<2_000 {
            forest.editAtRandom()
            let current = forest.root.snapshot
            guard checker.failures.isEmpty, checker.last == current, list.sections == forest.root.allItems else {
                Issue.record("step \(step) went wrong; replay with STORE_TEST_SEED=\(seed): \(checker.failures)")
                return
            }
        }
        #expect(list.errors.isEmpty, "seed \(seed)")
        #expect(checker.changeSets.count > 500, "too few edits reached the root; seed \(seed)")
    }
}
