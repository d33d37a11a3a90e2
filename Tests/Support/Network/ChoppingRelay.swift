import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// A TCP relay on loopback that cuts event streams at random moments: a connection whose request
/// starts with `marker` is closed, both sides, after a random number of the server's bytes (1 to
/// `longest`, or from `shortest`) have been passed on, often in the middle of an event, until
/// `cuts` were made.
/// Every other connection is relayed whole.
public final class ChoppingRelay: Sendable {
    public let port: Int
    private let channel: any Channel
    private let state: NIOLockedValueBox<State>

    struct State {
        var cutsLeft: Int
        var cut = 0
        /// A linear congruential generator's state: the cuts are the same for a seed.
        var seed: UInt64
    }

    /// How many streams were cut so far.
    public var cutsMade: Int { state.withLockedValue { $0.cut } }

    private init(port: Int, channel: any Channel, state: NIOLockedValueBox<State>) {
        self.port = port
        self.channel = channel
        self.state = state
    }

    public static func start(to serverPort: Int, marker: String = "GET /api/events", cuts: Int, shortest: Int = 1, longest: Int = 600, seed: UInt64) async throws -> ChoppingRelay {
        let state = NIOLockedValueBox(State(cutsLeft: cuts, seed: seed))
        let channel = try await LoopbackRelay.listen(to: { serverPort }) { client in
            let budget = NIOLockedValueBox<Int?>(nil)
            return LoopbackRelay.Join(
                fromServer: ChoppingHandler(peer: client, budget: budget),
                fromClient: { server in
                    RelayHandler(peer: server, drops: { bytes in
                        guard String(buffer: bytes).hasPrefix(marker) else { return false }
                        let chosen = state.withLockedValue { state -> Int? in
                            guard state.cutsLeft > 0 else { return nil }
                            state.cutsLeft -= 1
                            state.cut += 1
                            state.seed = state.seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                            return Int((state.seed >> 33) % UInt64(longest - shortest + 1)) + shortest
                        }
                        budget.withLockedValue { $0 = chosen }
                        return false
                    })
                }
            )
        }
        return ChoppingRelay(port: channel.localAddress?.port ?? 0, channel: channel, state: state)
    }

    public func stop() async {
        try? await channel.close()
    }
}

/// Passes the server's bytes to the client until the connection's budget (if it has one) is
/// spent, then closes both sides.
private final class ChoppingHandler: ChannelInboundHandler, Sendable {
    typealias InboundIn = ByteBuffer

    private let peer: any Channel
    private let budget: NIOLockedValueBox<Int?>

    init(peer: any Channel, budget: NIOLockedValueBox<Int?>) {
        self.peer = peer
        self.budget = budget
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var buffer = unwrapInboundIn(data)
        let allowed = budget.withLockedValue { budget -> Int? in
            guard let left = budget else { return nil }
            budget = left - buffer.readableBytes
            return left
        }
        guard let allowed, allowed < buffer.readableBytes else {
            peer.writeAndFlush(buffer, promise: nil)
            return
        }
        let part = buffer.readSlice(length: max(allowed, 0)) ?? ByteBuffer()
        let peer = self.peer
        peer.writeAndFlush(part).whenComplete { _ in peer.close(promise: nil) }
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        peer.close(promise: nil)
        context.fireChannelInactive()
    }
}
