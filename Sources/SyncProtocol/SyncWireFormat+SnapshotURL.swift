import Foundation

extension SyncWireFormat {
    /// The request for a snapshot page (``snapshotPath``) on `server`: the first page when
    /// `cursor` is `nil`, else the page after `position` (the first, when `nil`) of the snapshot
    /// at `cursor`; `nil` when `server` is not a URL a path can be added to.
    ///
    /// Every character but letters and digits is escaped: keys hold `+`, which some servers read
    /// as a space.
    public static func snapshotURL(
        on server: URL, schemaVersion: Int64, limit: Int, cursor: Int64?, after position: SyncSnapshotPosition?
    ) -> URL? {
        var items = [(Query.format, String(version)), (Query.schema, String(schemaVersion)), (Query.limit, String(limit))]
        if let cursor {
            items.append((Query.upTo, String(cursor)))
            if let position { items += [(Query.afterTable, position.table), (Query.afterKey, position.key)] }
        }
        guard var components = URLComponents(url: server.appendingPathComponent(snapshotPath), resolvingAgainstBaseURL: false)
        else { return nil }
        components.percentEncodedQuery = items.map { name, value in
            "\(name)=\(value.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")"
        }.joined(separator: "&")
        return components.url
    }
}
