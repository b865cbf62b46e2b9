import Foundation
import SQLiteStoreSyncProtocol

extension SyncServerEndpoints {
    /// A page of the rows `subscription` covers after `position`, with the columns that
    /// `schemaVersion` syncs.
    func subscribedPage(
        _ subscription: SyncSubscription, schemaVersion: Int64, after position: SyncSnapshotPosition?, limit: Int
    ) async throws -> SyncSharedPage {
        typealias Query = SyncWireFormat.Query
        var items = [
            Query.subscription: String(decoding: try JSONEncoder().encode(subscription), as: UTF8.self), Query.limit: String(limit),
        ]
        items[Query.schema] = String(schemaVersion)
        if let position { (items[Query.afterTable], items[Query.afterKey]) = (position.table, position.key) }
        let url = try url(SyncWireFormat.subscribedPath, items)
        let page = try await send(SyncTransportRequest(method: .get, url: url, timeout: timeout)) {
            try JSONDecoder().decode(SyncSharedPage.self, from: $0)
        }
        // A key may be in the data of several accounts the device reads: count keys, not rows.
        let keys = Set(page.rows.map { SyncRowIdentity(table: $0.table, key: $0.key) })
        guard keys.count <= limit else {
            throw SyncServerError(
                reason: .unexpectedResponse, message: "the page holds \(keys.count) rows, more than the \(limit) asked for")
        }
        return page
    }
}
