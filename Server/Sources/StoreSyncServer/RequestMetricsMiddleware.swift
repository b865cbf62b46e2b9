import Hummingbird
import SQLiteStoreSyncProtocol

/// Counts every request by route and status and times pushes and pulls, into ``SyncMetrics``.
struct RequestMetricsMiddleware<Context: RequestContext>: RouterMiddleware {
    let metrics: SyncMetrics

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        let longPoll = (request.uri.queryParameters.get(SyncWireFormat.Query.wait, as: Int.self) ?? 0) > 0
        func record(_ status: HTTPResponse.Status) {
            metrics.requestAnswered(
                route: context.endpointPath ?? "NotFound", status: status.code, duration: ContinuousClock.now - start,
                longPoll: longPoll)
        }
        do {
            let response = try await next(request, context)
            record(response.status)
            return response
        } catch {
            // The router answers a thrown HTTP error (a path it has no route for) with its status.
            record((error as? any HTTPResponseError)?.status ?? .internalServerError)
            throw error
        }
    }
}
