import Foundation
import Hummingbird
import SQLiteStoreSyncProtocol

/// A refused request: answered with its HTTP status and a ``SyncWireError`` body, after which
/// nothing of the request is stored.
struct SyncFailure: Error {
    let error: SyncWireError

    init(_ code: SyncWireError.Code, _ message: String) { error = SyncWireError(code: code, message: message) }

    var status: HTTPResponse.Status {
        switch error.code {
        case .unauthorized: .unauthorized
        case .malformed: .badRequest
        case .tooLarge: .contentTooLarge
        case .upgradeRequired, .forkedDevice: .conflict
        case .clockSkew, .notSynced: .unprocessableContent
        case .deviceForgotten: .gone
        case .forbidden: .forbidden
        // A server never refuses with a client's own findings; were it to, they say it failed.
        case .unavailable, .unreachable, .unexpectedResponse: .serviceUnavailable
        }
    }

    var response: Response {
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        if error.code == .unauthorized { headers[.wwwAuthenticate] = "Bearer" }
        let body = (try? answerJSON(error)) ?? Data()
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
    }
}
