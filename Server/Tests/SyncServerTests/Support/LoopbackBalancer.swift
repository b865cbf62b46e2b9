import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// A TCP proxy on a loopback port that stands for the load balancer of a deployment: clients
/// know one URL, and each connection they open reaches the server process the test routes to
/// at that moment (``route(to:)``). A connection ends when either side's does, so a killed
/// process cuts the connections through it, and a connection to a process that is down is
/// closed at once, as a balancer without a healthy process behind it would. The test can also
/// fault a connection while the server runs on (``fault(connection:_:)``): cut it at any byte
/// of the request or of the answers, inside a status line, a header, a body or after it, or
/// hold an answer back: the network failing, not the server.
final class LoopbackBalancer: Sendable {
    /// What goes wrong with one connection.
    enum Fault: Sendable {
        /// Both sides closed once `afterBytes` bytes of what the client sends went through.
        case cutRequest(afterBytes: Int)
        /// Both sides closed once `afterBytes` bytes of the server's answers went through,
        /// counted from the first answer's first byte: inside its status line, its headers, its
        /// body, after it, or in a later answer on the same connection.
        case cutAnswer(afterBytes: Int)
        /// The server's answers held back for `milliseconds` before they go through: a stall,
        /// a hang when longer than the client's timeout.
        case stallAnswer(milliseconds: Int64)
    }

    /// The loopback port clients connect to.
    let port: Int
    /// The URL clients sync with.
    var url: URL { URL(string: "http://127.0.0.1:\(port)")! }
    /// How many connections were accepted.
    var connections: Int { accepted.withLockedValue { $0 } }
    /// How many connections were cut, in a request or in an answer.
    var cuts: Int { cutCount.withLockedValue { $0 } }

    /// A connection to fault: how many connections to let through first, and what to do to it.
    private struct PendingFault {
        var skipped: Int
        let fault: Fault
    }

    private let backendPort: NIOLockedValueBox<Int>
    private let accepted = NIOLockedValueBox(0)
    private let pendingFault = NIOLockedValueBox<PendingFault?>(nil)
    private let cutCount = NIOLockedValueBox(0)
    private let channel: any Channel

    /// A balancer that routes to the process listening on `backendPort` until told otherwise.
    init(routingTo backendPort: Int) async throws {
        let target = NIOLockedValueBox(backendPort)
        let (accepted, pendingFault, cutCount) = (self.accepted, self.pendingFault, self.cutCount)
        channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.autoRead, value: false)
            .childChannelInitializer { inbound in
                accepted.withLockedValue { $0 += 1 }
                let fault = Self.takeFault(from: pendingFault)
                Self.connect(inbound, toPort: target.withLockedValue { $0 }, fault: fault, cuts: cutCount)
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

    /// Faults the connection accepted after `index` others from now on (0: the next).
    /// Replaces a fault still waiting for its connection.
    func fault(connection index: Int, _ fault: Fault) {
        pendingFault.withLockedValue { $0 = PendingFault(skipped: index, fault: fault) }
    }

    /// Forgets a fault whose connection was never opened.
    func cancelFault() {
        pendingFault.withLockedValue { $0 = nil }
    }

    /// Stops accepting connections; those under way end with their server's or client's side.
    func close() async throws {
        try await channel.close()
    }

    /// The fault due for the connection just accepted, if any; counts the connection toward the next one's.
    private static func takeFault(from pending: NIOLockedValueBox<PendingFault?>) -> Fault? {
        pending.withLockedValue { pending in
            guard let due = pending else { return nil }
            guard due.skipped == 0 else {
                pending?.skipped -= 1
                return nil
            }
            pending = nil
            return due.fault
        }
    }

    /// Opens a connection to `port` for `inbound`, then forwards the bytes both ways as `fault`
    /// lets them; closes `inbound` when nothing listens there.
    private static func connect(_ inbound: any Channel, toPort port: Int, fault: Fault?, cuts: NIOLockedValueBox<Int>) {
        ClientBootstrap(group: inbound.eventLoop).connect(host: "127.0.0.1", port: port).whenComplete { result in
            switch result {
            case .success(let outbound):
                var (request, answer) = (Forwarder.Limit.none, Forwarder.Limit.none)
                switch fault {
                case .cutRequest(let bytes): request = .cutAfter(bytes)
                case .cutAnswer(let bytes): answer = .cutAfter(bytes)
                case .stallAnswer(let milliseconds): answer = .holdFor(milliseconds)
                case nil: break
                }
                do {
                    try inbound.pipeline.syncOperations.addHandler(Forwarder(to: outbound, limit: request, cuts: cuts))
                    try outbound.pipeline.syncOperations.addHandler(Forwarder(to: inbound, limit: answer, cuts: cuts))
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

/// Writes what one side of a proxied connection reads to the other, and closes the other side
/// when its own ends; within its ``Limit``.
private final class Forwarder: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    /// How far the bytes read go through.
    enum Limit {
        /// All of them.
        case none
        /// This many, then both sides close.
        case cutAfter(Int)
        /// All of them, the first held back this many milliseconds with those read meanwhile.
        case holdFor(Int64)
    }

    private let partner: any Channel
    private let limit: Limit
    private let cuts: NIOLockedValueBox<Int>
    /// The bytes that went through so far.
    private var forwarded = 0
    private var isCut = false
    /// While an answer is held back: what was read meanwhile, and whether this side closed.
    private var held: (bytes: ByteBuffer, closed: Bool)?
    private var holdDone = false

    init(to partner: any Channel, limit: Limit, cuts: NIOLockedValueBox<Int>) {
        self.partner = partner
        self.limit = limit
        self.cuts = cuts
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !isCut else { return }
        var bytes = unwrapInboundIn(data)
        switch limit {
        case .none:
            partner.writeAndFlush(bytes, promise: nil)
        case .cutAfter(let limit):
            let room = limit - forwarded
            guard bytes.readableBytes > room else {
                forwarded += bytes.readableBytes
                partner.writeAndFlush(bytes, promise: nil)
                return
            }
            let kept = bytes.readSlice(length: max(0, room)) ?? ByteBuffer()
            isCut = true
            cuts.withLockedValue { $0 += 1 }
            let partner = self.partner
            partner.writeAndFlush(kept).whenComplete { _ in partner.close(promise: nil) }
            context.close(promise: nil)
        case .holdFor(let milliseconds):
            if holdDone { return partner.writeAndFlush(bytes, promise: nil) }
            if var pending = held {
                pending.bytes.writeBuffer(&bytes)
                held = pending
                return
            }
            held = (bytes, false)
            let forwarder = NIOLoopBound(self, eventLoop: context.eventLoop)
            context.eventLoop.scheduleTask(in: .milliseconds(milliseconds)) { forwarder.value.releaseHeld() }
        }
    }

    /// Lets what was held back through, and closes the other side if this one closed meanwhile.
    private func releaseHeld() {
        holdDone = true
        guard let (bytes, closed) = held else { return }
        held = nil
        let partner = self.partner
        partner.writeAndFlush(bytes).whenComplete { _ in if closed { partner.close(promise: nil) } }
    }

    /// Closes the other side once what this side sent is written there: closing it at once
    /// would drop an answer still waiting for room in the client's socket, or still held back.
    func channelInactive(context: ChannelHandlerContext) {
        if held != nil {
            held?.closed = true
        } else {
            let partner = self.partner
            partner.writeAndFlush(ByteBuffer()).whenComplete { _ in partner.close(promise: nil) }
        }
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
