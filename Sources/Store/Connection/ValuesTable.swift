/// Rows of values held in Swift that SQL reads as a table while
/// ``Database/withValuesTable(_:named:_:)`` runs: the source of a set-based statement, where
/// binding every row to a statement of its own would run a statement per row. Kept column by
/// column; every column is as long as the others.
package struct ValuesTable: Sendable {
    /// The columns' names, as SQL names them.
    package let columnNames: [String]
    /// The values, column by column.
    private(set) var columns: [[DatabaseValue]]

    /// An empty table with these columns (at least one, as SQL requires).
    package init(columnNames: [String]) {
        precondition(!columnNames.isEmpty, "a table has at least one column")
        self.columnNames = columnNames
        columns = Array(repeating: [], count: columnNames.count)
    }

    /// How many rows the table has.
    package var rowCount: Int { columns[0].count }

    /// The values of the column `name`, one per row.
    package func column(_ name: String) -> [DatabaseValue] {
        guard let index = columnNames.firstIndex(of: name) else { preconditionFailure("no column \(name) among \(columnNames)") }
        return columns[index]
    }

    /// Makes room for `count` rows in all.
    package mutating func reserveCapacity(_ count: Int) {
        for index in columns.indices { columns[index].reserveCapacity(count) }
    }

    /// Appends a row: one value per column, in the columns' order.
    package mutating func append(_ row: DatabaseValue...) {
        append(row: row)
    }

    /// Appends a row: one value per column, in the columns' order.
    package mutating func append(row: [DatabaseValue]) {
        precondition(row.count == columns.count, "a row of \(row.count) values for \(columns.count) columns")
        for (index, value) in row.enumerated() { columns[index].append(value) }
    }
}
