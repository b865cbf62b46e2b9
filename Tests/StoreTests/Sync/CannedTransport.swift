import Foundation

@testable import SQLiteStoreCore
@testable import SQLiteStoreSync

/// A transport that answers every request with the same status and body: the answers a real
/// server never gives.
struct CannedTransport: SyncTransport {
    let answer: Data
    let status: Int

    init(answer: Data, status: Int = 200) {
        self.answer = answer
        self.status = status
    }

    func send(_ request: SyncTransportRequest) async throws -> SyncTransportResponse {
        try Task.checkCancellation()
        return SyncTransportResponse(status: status, body: answer)
    }
}
