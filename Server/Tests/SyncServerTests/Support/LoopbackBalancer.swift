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
/// closed at once, as a balancer without a healthy process behind it would. The test can also
/// drop a connection before or partway through the body of the server's answer while the
/// server runs on (``cut(connection:afterBodyBytes:)``): the network failing, not the server.
final class LoopbackBalancer: Sendable {
    /// The loopback port clients connect to.
    let port: Int
    /// The URL clients sync with.
    var url: URL { URL(string: "http://127.0.0.1:\(port)")! }
    /// How many connections were accepted.
    var connections: Int { accepted.withLockedValue { $0 } }
    /// How many connections were dropped before the end of an answer.
    var cuts: Int { cutCount.withLockedValue { $0 } }

    /// A session for one operation's client: its requests reuse their connections, opened
    /// where the balancer routes during the operation, never one kept from an earlier operation
    /// to another process. (A shared session asking `Connection: close` of every request instead
    /// timed a sync out in the races of seed 1.)
    static func session() -> URLSession {
        URLSession(configuration: .ephemeral)
    }

    /// A connection to drop: how many connections to let through first, and where in its answer.
    private struct PendingCut {
        var skipped: Int
        let bodyBytes: Int?
    }

    private let backendPort: NIOLockedValueBox<Int>
    private let accepted = NIOLockedValueBox(0)
    private let pendingCut = NIOLockedValueBox<PendingCut?>(nil)
    private let cutCount = NIOLockedValueBox(0)
    private let channel: any Channel

    /// A balancer that routes to the process listening on `backendPort` until told otherwise.
    init(routingTo backendPort: Int) async throws {
        let target = NIOLockedValueBox(backendPort)
        let (accepted, pendingCut, cutCount) = (self.accepted, self.pendingCut, self.cutCount)
        channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.autoRead, value: false)
            .childChannelInitializer { inbound in
                accepted.withLockedValue { $0 += 1 }
                let cut = Self.takeCut(from: pendingCut).map { AnswerCut(bodyBytes: $0.bodyBytes, count: cutCount) }
                Self.connect(inbound, toPort: target.withLockedValue { $0 }, cut: cut)
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

    /// Drops the connection accepted after `index` others from now on (0: the next), closing
    /// both of its sides: before its first answer's first byte (`bodyBytes` nil), or once that
    /// answer's head and `bodyBytes` bytes of its body went through; a shorter body, and the
    /// answers after it, go through whole.
    /// Replaces a cut still waiting for its connection.
    ///
    /// Never inside the head: on Linux, `URLSession` stops the process (`Fatal error: Transfer
    /// completed, but there's no response`, FoundationNetworking with libcurl 7.88) when a
    /// connection closes after the status line and before the `Content-Length` header.
    func cut(connection index: Int, afterBodyBytes bodyBytes: Int?) {
        pendingCut.withLockedValue { $0 = PendingCut(skipped: index, bodyBytes: bodyBytes) }
    }

    /// Forgets a cut whose connection was never opened.
    func cancelCut() {
        pendingCut.withLockedValue { $0 = nil }
    }

    /// Stops accepting connections; those under way end with their server's or client's side.
    func close() async throws {
        try await channel.close()
    }

    /// The cut due for the connection just accepted, if any; counts the connection toward the next one's.
    private static func takeCut(from pending: NIOLockedValueBox<PendingCut?>) -> PendingCut? {
        pending.withLockedValue { cut in
            guard let due = cut else { return nil }
            guard due.skipped == 0 else {
                cut?.skipped -= 1
                return nil
            }
            cut = nil
            return due
        }
    }

    /// Opens a connection to `port` for `inbound`, then forwards the bytes both ways, the
    /// answer as far as `cut` lets it; closes `inbound` when nothing listens there.
    private static func connect(_ inbound: any Channel, toPort port: Int, cut: AnswerCut?) {
        ClientBootstrap(group: inbound.eventLoop).connect(host: "127.0.0.1", port: port).whenComplete { result in
            switch result {
            case .success(let outbound):
                do {
                    try inbound.pipeline.syncOperations.addHandler(Forwarder(to: outbound))
                    try outbound.pipeline.syncOperations.addHandler(Forwarder(to: inbound, cut: cut))
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

/// Where a server's answer is cut (see ``LoopbackBalancer/cut(connection:afterBodyBytes:)``),
/// and where the cuts are counted.
private struct AnswerCut {
    let bodyBytes: Int?
    let count: NIOLockedValueBox<Int>
}

/// Writes what one side of a proxied connection reads to the other, and closes the other side
/// when its own ends; with a `cut`, closes both where it says.
private final class Forwarder: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    private let partner: any Channel
    private let cut: AnswerCut?
    /// The first answer's head as read so far; its end is `\r\n\r\n`.
    private var head: [UInt8] = []
    /// The first answer's body bytes that went through, once its head did.
    private var bodyForwarded: Int?
    /// The first answer's `Content-Length`, once its head went through.
    private var bodyLength: Int?
    /// Whether the cut no longer applies: the first answer's body is shorter than it. Later
    /// answers on the connection go through whole, so that no cut lands inside their heads.
    private var passesThrough = false
    private var isCut = false

    init(to partner: any Channel, cut: AnswerCut? = nil) {
        self.partner = partner
        self.cut = cut
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !isCut else { return }
        var bytes = unwrapInboundIn(data)
        guard let cut, !passesThrough else {
            partner.writeAndFlush(bytes, promise: nil)
            return
        }
        guard let bodyBytes = cut.bodyBytes else { return drop(keeping: ByteBuffer(), context: context) }
        var kept = readHead(from: &bytes)
        guard let forwarded = bodyForwarded else {
            partner.writeAndFlush(kept, promise: nil)
            return
        }
        guard let bodyLength, bodyBytes < bodyLength else {
            passesThrough = true
            kept.writeBuffer(&bytes)
            partner.writeAndFlush(kept, promise: nil)
            return
        }
        let room = bodyBytes - forwarded
        guard bytes.readableBytes > room else {
            bodyForwarded = forwarded + bytes.readableBytes
            kept.writeBuffer(&bytes)
            partner.writeAndFlush(kept, promise: nil)
            return
        }
        var body = bytes.readSlice(length: room) ?? ByteBuffer()
        kept.writeBuffer(&body)
        drop(keeping: kept, context: context)
    }

    /// Takes from `bytes` what is still the first answer's head; once it is whole, notes its
    /// body's length and that the body starts.
    private func readHead(from bytes: inout ByteBuffer) -> ByteBuffer {
        var read = ByteBuffer()
        while bodyForwarded == nil, let byte = bytes.readInteger(as: UInt8.self) {
            read.writeInteger(byte)
            head.append(byte)
            guard head.suffix(4).elementsEqual("\r\n\r\n".utf8) else { continue }
            bodyForwarded = 0
            let lengthLine = String(decoding: head, as: UTF8.self).lowercased().split(separator: "\r\n")
                .first { $0.hasPrefix("content-length:") }
            bodyLength = lengthLine.flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) }
        }
        return read
    }

    /// Writes `kept`, then closes both sides.
    private func drop(keeping kept: ByteBuffer, context: ChannelHandlerContext) {
        isCut = true
        cut?.count.withLockedValue { $0 += 1 }
        let partner = self.partner
        partner.writeAndFlush(kept).whenComplete { _ in partner.close(promise: nil) }
        context.close(promise: nil)
    }

    /// Closes the other side once what this side sent is written there: closing it at once
    /// would drop an answer still waiting for room in the client's socket.
    func channelInactive(context: ChannelHandlerContext) {
        let partner = self.partner
        partner.writeAndFlush(ByteBuffer()).whenComplete { _ in partner.close(promise: nil) }
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
