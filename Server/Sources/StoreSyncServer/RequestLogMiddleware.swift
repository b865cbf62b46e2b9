import Hummingbird
import Logging

/// Gives each request its id on every line its handlers log (the request logger's
/// `hb.request.id`): the client's `X-Request-ID` when it sends a usable one (1 to 128 visible
/// ASCII characters), else the id Hummingbird made. Echoes the id in the answer's
/// `X-Request-ID`, and logs one line per answered request (info).
struct RequestLogMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The longest client-given request id kept.
    static var maxIDLength: Int { 128 }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        let id = request.headers[.requestID].flatMap(Self.usable) ?? context.logger[metadataKey: Self.idKey]?.description ?? ""
        context.logger[metadataKey: Self.idKey] = .string(id)
        let start = ContinuousClock.now
        var response: Response
        do {
            response = try await next(request, context)
        } catch let error as any HTTPResponseError {
            // Answered here rather than by the router, so that the answer carries the id too.
            response = try error.response(from: request, context: context)
        }
        response.headers[.requestID] = id
        context.logger.info(
            "answered",
            metadata: [
                "http.method": .string(request.method.rawValue), "http.path": .string(request.uri.path),
                "http.status": .stringConvertible(response.status.code),
                "duration_ms": .stringConvertible((ContinuousClock.now - start) / .milliseconds(1)),
            ])
        return response
    }

    /// The logger metadata key of the request id, Hummingbird's own.
    static var idKey: String { "hb.request.id" }

    /// `id` if it is 1 to ``maxIDLength`` visible ASCII characters (no space, no control).
    static func usable(_ id: String) -> String? {
        guard (1...maxIDLength).contains(id.utf8.count), id.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else { return nil }
        return id
    }
}
