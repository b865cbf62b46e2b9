import Foundation

/// A data source over fixed sections of items; it never changes, so it never publishes.
@MainActor
public final class ArrayDataSource<Item>: DataSource {
    /// The rows of each section.
    public let sections: [[Item]]
    private let headers: [SectionHeader?]

    /// Shows `sections`, with `headers[i]` above section `i` where given.
    public init(sections: [[Item]], headers: [SectionHeader?] = []) {
        self.sections = sections
        self.headers = headers
    }

    /// Shows `items` in one section.
    public convenience init(items: [Item], header: SectionHeader? = nil) {
        self.init(sections: [items], headers: [header])
    }

    /// Never publishes: the content is fixed.
    public let changes = ChangeSetPublisher()

    public var numberOfSections: Int { sections.count }

    public func numberOfRows(inSection section: Int) -> Int { sections[section].count }

    public func item(at indexPath: IndexPath) -> Item { sections[indexPath.section][indexPath.row] }

    public func header(forSection section: Int) -> SectionHeader? {
        headers.indices.contains(section) ? headers[section] : nil
    }
}
