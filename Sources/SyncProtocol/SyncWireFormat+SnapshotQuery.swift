import Foundation

extension SyncWireFormat {
    /// The percent-encoded query of a snapshot page request (``snapshotPath``): the first page
    /// when `cursor` is `nil`, else the page after `position` (the first, when `nil`) of the
    /// snapshot at `cursor`.
    ///
    /// Every character but letters and digits is escaped: keys hold `+`, which some servers read
    /// as a space.
    public static func snapshotQuery(schemaVersion: Int64, limit: Int, cursor: Int64?, after position: SyncSnapshotPosition?) -> String {
        var items = [(Query.format, String(version)), (Query.schema, String(schemaVersion)), (Query.limit, String(limit))]
        if let cursor {
            items.append((Query.upTo, String(cursor)))
            if let position { items += [(Query.afterTable, position.table), (Query.afterKey, position.key)] }
        }
        return items.map { name, value in "\(name)=\(value.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")" }
            .joined(separator: "&")
    }
}
