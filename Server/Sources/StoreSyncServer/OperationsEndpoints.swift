import Foundation
import Hummingbird

/// The endpoints for the operator and the load balancer, without authentication: `/health`
/// (200 while the process serves), `/ready` (200 when it can serve sync requests, else 503 and
/// why) and `/metrics` (Prometheus's text format).
struct OperationsEndpoints: Sendable {
    let readiness: ServerReadiness
    let metrics: SyncMetrics

    /// The paths served.
    enum Path {
        static let health = "/health"
        static let ready = "/ready"
        static let metrics = "/metrics"
    }

    /// The body of `/health` and `/ready`.
    struct Status: Encodable {
        /// Whether the process can serve sync requests (`/ready`) or serves at all (`/health`).
        let ok: Bool
        /// Why it cannot, when it cannot.
        let reason: String?
    }

    func register(on router: Router<some RequestContext>) {
        router.get(RouterPath(Path.health)) { _, _ in Self.answer(Status(ok: true, reason: nil), status: .ok) }
        router.get(RouterPath(Path.ready)) { _, context in
            if let problem = await readiness.problem(logger: context.logger) {
                context.logger.info("sync: not ready: \(problem)")
                return Self.answer(Status(ok: false, reason: problem), status: .serviceUnavailable)
            }
            return Self.answer(Status(ok: true, reason: nil), status: .ok)
        }
        router.get(RouterPath(Path.metrics)) { _, _ in
            var headers = HTTPFields()
            headers[.contentType] = "text/plain; version=0.0.4; charset=utf-8"
            return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: metrics.text())))
        }
    }

    private static func answer(_ body: Status, status: HTTPResponse.Status) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        let json = (try? answerJSON(body)) ?? Data()
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: json)))
    }
}
