import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A TCP relay on loopback in front of a server: every connection it accepts is joined to a new
/// connection to the server, and the bytes the server sends through it are counted. What a
/// client received, measured on the wire and not by the client.
public final class CountingRelay: Sendable {
    public let port: Int
    private let channel: any Channel
    private let fromServer: NIOLockedValueBox<Int>
    private let target: NIOLockedValueBox<Int>

    /// The server port new connections are relayed to; change it to put a restarted server behind
    /// the same address.
    public var serverPort: Int {
        get { target.withLockedValue { $0 } }
        set { target.withLockedValue { $0 = newValue } }
    }

    /// The bytes the server has sent to clients so far.
    public var bytesFromServer: Int { fromServer.withLockedValue { $0 } }

    private init(port: Int, channel: any Channel, fromServer: NIOLockedValueBox<Int>, target: NIOLockedValueBox<Int>) {
        self.port = port
        self.channel = channel
        self.fromServer = fromServer
        self.target = target
    }

    /// Starts relaying from an ephemeral loopback port to `127.0.0.1:serverPort`. With
    /// `sharingItsPort`, another socket of this process may bind the port while it listens
    /// (SO_REUSEPORT): what ``AddressThatGoesAway`` needs to hold it past the relay.
    public static func start(to serverPort: Int, sharingItsPort: Bool = false) async throws -> CountingRelay {
        let fromServer = NIOLockedValueBox(0)
        let target = NIOLockedValueBox(serverPort)
        let channel = try await LoopbackRelay.listen(to: { target.withLockedValue { $0 } }, sharingItsPort: sharingItsPort) { client in
            LoopbackRelay.Join(
                fromServer: RelayHandler(peer: client, count: { bytes in fromServer.withLockedValue { $0 += bytes } }),
                fromClient: { server in RelayHandler(peer: server) }
            )
        }
        return CountingRelay(port: channel.localAddress?.port ?? 0, channel: channel, fromServer: fromServer, target: target)
    }

    public func stop() async {
        try? await channel.close()
    }
}

/// Writes what one side reads to the other side, and closes the other side when its own closes.
/// A read that `drops` says to drop closes both sides instead (``CuttingRelay``).
final class RelayHandler: ChannelInboundHandler, Sendable {
    typealias InboundIn = ByteBuffer

    private let peer: any Channel
    private let count: @Sendable (Int) -> Void
    private let drops: @Sendable (ByteBuffer) -> Bool

    init(peer: any Channel, count: @escaping @Sendable (Int) -> Void = { _ in }, drops: @escaping @Sendable (ByteBuffer) -> Bool = { _ in false }) {
        self.peer = peer
        self.count = count
        self.drops = drops
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let buffer = unwrapInboundIn(data)
        if drops(buffer) {
            context.close(promise: nil)
            peer.close(promise: nil)
            return
        }
        count(buffer.readableBytes)
        peer.writeAndFlush(buffer, promise: nil)
    }

    // The client side does not read on its own (nothing could be relayed before the server side
    // is connected): it reads once it is both active and joined, then after every read.
    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { context.read() }
    }

    func channelActive(context: ChannelHandlerContext) {
        context.read()
        context.fireChannelActive()
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        context.read()
    }

    func channelInactive(context: ChannelHandlerContext) {
        peer.close(promise: nil)
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}
