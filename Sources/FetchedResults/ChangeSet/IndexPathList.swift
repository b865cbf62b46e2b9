import Foundation

/// Index paths in ascending order, as a `ChangeSet` holds its inserts: a list, or, for rows
/// appended at the end of one section (the rest after a first page: a million at 1M, 27 MiB
/// as index paths), the range of those rows. Equal (and hashed) element by element, whatever
/// the form.
struct IndexPathList: RandomAccessCollection, Sendable, Hashable {
    private enum Storage: Sendable {
        case list([IndexPath])
        case rows(Range<Int>, section: Int)
    }

    private let storage: Storage

    /// The index paths `paths`, ascending.
    init(_ paths: [IndexPath]) { storage = .list(paths) }

    /// Rows `rows` of section `section`.
    init(rows: Range<Int>, section: Int) { storage = .rows(rows, section: section) }

    var startIndex: Int { 0 }

    var endIndex: Int {
        switch storage {
        case .list(let paths): paths.count
        case .rows(let rows, _): rows.count
        }
    }

    subscript(position: Int) -> IndexPath {
        switch storage {
        case .list(let paths): paths[position]
        case .rows(let rows, let section): IndexPath(row: rows.lowerBound + position, section: section)
        }
    }

    /// The index paths as an array: the list itself, or the rows' paths, made on each call.
    var array: [IndexPath] {
        switch storage {
        case .list(let paths): paths
        case .rows: Array(self)
        }
    }

    /// Whether `path` is among the index paths: O(log n), O(1) for rows.
    func containsSorted(_ path: IndexPath) -> Bool {
        switch storage {
        case .list(let paths): paths.containsSorted(path)
        case .rows(let rows, let section): path.count == 2 && path.section == section && rows.contains(path.row)
        }
    }

    static func == (lhs: IndexPathList, rhs: IndexPathList) -> Bool {
        lhs.count == rhs.count && lhs.elementsEqual(rhs)
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        for path in self { hasher.combine(path) }
    }
}
