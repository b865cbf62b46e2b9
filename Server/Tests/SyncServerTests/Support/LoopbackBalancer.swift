import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A TCP proxy on a loopback port that stands for the load balancer of a deployment: clients
/// know one URL, and each connection they open reaches the server process the test routes to
/// at that moment (``route(to:)``). A connection ends when either side's does, so a killed
/// process cuts the connections through it, and a connection to a process that is down is
/// closed at once, as a balancer without a healthy process behind it would.
final class LoopbackBalancer: Sendable {
    /// The loopback port clients connect to.
    let port: Int
    /// The URL clients sync with.
    var url: URL { URL(string: "http://127.0.0.1:\(port)")! }
    /// How many connections were accepted: each request of a ``session`` opens one.
    var connections: Int { accepted.withLockedValue { $0 } }

    /// A session whose every request opens a connection of its own (`Connection: close`), so
    /// that each request goes where the balancer routes at the time, not through a connection
    /// kept from an earlier request to another process.
    static let session: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpAdditionalHeaders = ["Connection": "close"]
        return URLSession(configuration: configuration)
    }()

    private let backendPort: NIOLockedValueBox<Int>
    private let accepted = NIOLockedValueBox(0)
    private let channel: any Channel

    /// A balancer that routes to the process listening on `backendPort` until told otherwise.
    init(routingTo backendPort: Int) async throws {
        let target = NIOLockedValueBox(backendPort)
        let accepted = self.accepted
        channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.autoRead, value: false)
            .childChannelInitializer { inbound in
                accepted.withLockedValue { $0 += 1 }
                Self.connect(inbound, toPort: target.withLockedValue { $0 })
                return inbound.eventLoop.makeSucceededVoidFuture()
            }
            .bind(host: "127.0.0.1", port: 0).get()
        self.backendPort = target
        guard let port = channel.localAddress?.port else { throw BalancerError("the balancer has no port") }
        self.port = port
    }

    /// Sends the connections opened from now on to the process listening on `port`.
    func route(to port: Int) {
        backendPort.withLockedValue { $0 = port }
    }

    /// Stops accepting connections; those under way end with their server's or client's side.
    func close() async throws {
        try await channel.close()
    }

    /// Opens a connection to `port` for `inbound`, then forwards the bytes both ways; closes
    /// `inbound` when nothing listens there.
    private static func connect(_ inbound: any Channel, toPort port: Int) {
        ClientBootstrap(group: inbound.eventLoop).connect(host: "127.0.0.1", port: port).whenComplete { result in
            switch result {
            case .success(let outbound):
                do {
                    try inbound.pipeline.syncOperations.addHandler(Forwarder(to: outbound))
                    try outbound.pipeline.syncOperations.addHandler(Forwarder(to: inbound))
                    inbound.setOption(.autoRead, value: true).whenFailure { _ in outbound.close(promise: nil) }
                } catch {
                    inbound.close(promise: nil)
                    outbound.close(promise: nil)
                }
            case .failure:
                inbound.close(promise: nil)
            }
        }
    }
}

/// Writes what one side of a proxied connection reads to the other, and closes the other side when its own ends.
private final class Forwarder: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    private let partner: any Channel

    init(to partner: any Channel) {
        self.partner = partner
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        partner.writeAndFlush(unwrapInboundIn(data), promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        partner.close(promise: nil)
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}

/// A balancer that could not start.
struct BalancerError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
