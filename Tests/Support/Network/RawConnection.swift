import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// A plain TCP connection to a loopback server, for requests no HTTP client would send:
/// broken framing, a request line sent halfway, a method a client library refuses.
public final class RawConnection: Sendable {
    /// What the server sent, and whether it closed the connection.
    public struct Reply: Sendable {
        public let text: String
        public let closedByServer: Bool

        /// The status code of the first response line, if there is one.
        public var status: Int? {
            let parts = text.prefix { $0 != "\r" }.split(separator: " ")
            return parts.count >= 2 ? Int(parts[1]) : nil
        }
    }

    private let channel: any Channel
    private let received: AsyncStream<ByteBuffer>
    private let alreadyRead = NIOLockedValueBox("")

    private init(channel: any Channel, received: AsyncStream<ByteBuffer>) {
        self.channel = channel
        self.received = received
    }

    /// A connection no test closed is closed when the test lets go of it: with remote half-closure
    /// allowed, NIO would otherwise keep it open, in CLOSE_WAIT, for the rest of the run.
    deinit {
        channel.close(promise: nil)
    }

    /// Connects to `127.0.0.1:port`, from `localHost` if given (another loopback address, such as
    /// `127.0.0.2`: a second client address on Linux), and sends `firstText` (if any) from the
    /// connection's event loop as soon as it is connected: a server's head or idle timeout cannot
    /// fire between the two however long the test's own task waits for a thread.
    public static func open(port: Int, from localHost: String? = nil, sending firstText: String? = nil) async throws -> RawConnection {
        let (received, continuation) = AsyncStream<ByteBuffer>.makeStream()
        var bootstrap = ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
        if let localHost { bootstrap = bootstrap.bind(to: try SocketAddress(ipAddress: localHost, port: 0)) }
        let channel = try await bootstrap
            .channelOption(.allowRemoteHalfClosure, value: true)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(Collector(continuation)) }
            }
            .connect(host: "127.0.0.1", port: port)
            .flatMap { channel in
                guard let firstText else { return channel.eventLoop.makeSucceededFuture(channel) }
                return channel.writeAndFlush(ByteBuffer(string: firstText)).map { channel }
            }
            .get()
        return RawConnection(channel: channel, received: received)
    }

    /// The connection's port on this side.
    public var localPort: Int { channel.localAddress?.port ?? 0 }

    /// How many bytes sent on this connection the server has not read yet, from the kernel's table
    /// of TCP sockets (`/proc/net/tcp`): 0 means the server has taken in all of them.
    public func unreadByServer(serverPort: Int) throws -> Int {
        let file = try FileHandle(forReadingFrom: URL(fileURLWithPath: "/proc/net/tcp"))
        defer { try? file.close() }
        let table = String(decoding: try file.readToEnd() ?? Data(), as: UTF8.self)
        let local = String(format: "0100007F:%04X", serverPort)
        let remote = String(format: "0100007F:%04X", localPort)
        for line in table.split(separator: "\n").dropFirst() {
            let fields = line.split(separator: " ")
            guard fields.count > 4, fields[1] == local, fields[2] == remote else { continue }
            let queues = fields[4].split(separator: ":")
            return Int(queues[1], radix: 16) ?? 0
        }
        throw RawConnectionError.notInSocketTable(serverPort: serverPort, clientPort: localPort)
    }

    /// Whether the connection is still open (the server has not closed it, nor has this side).
    public var isActive: Bool { channel.isActive }

    /// Sends `text` as it is.
    public func send(_ text: String) async throws {
        try await channel.writeAndFlush(ByteBuffer(string: text))
    }

    /// What the server sent so far once it contains `expected`; `nil` if the connection closed
    /// first or `limit` passed. What is read counts for ``readUntilClosed(limit:)`` too.
    public func read(until expected: String, limit: Duration) async throws -> String? {
        let received = self.received
        let alreadyRead = self.alreadyRead
        return try await withThrowingTaskGroup(of: String?.self) { group in
            group.addTask {
                var text = alreadyRead.withLockedValue { $0 }
                if text.contains(expected) { return text }
                for await buffer in received {
                    text += String(buffer: buffer)
                    alreadyRead.withLockedValue { $0 = text }
                    if text.contains(expected) { return text }
                }
                return nil
            }
            group.addTask {
                try await Task.sleep(for: limit)
                return nil
            }
            let first = try await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }

    /// Everything the server sends until it closes the connection, or until `limit` passes (then
    /// ``Reply/closedByServer`` is `false`); then this side closes too. The limit is a bound against
    /// hanging, not a measurement.
    public func readUntilClosed(limit: Duration) async throws -> Reply {
        let received = self.received
        let alreadyRead = self.alreadyRead
        return try await withThrowingTaskGroup(of: Reply?.self) { group in
            group.addTask {
                var text = alreadyRead.withLockedValue { $0 }
                for await buffer in received { text += String(buffer: buffer) }
                return Reply(text: text, closedByServer: true)
            }
            group.addTask {
                try await Task.sleep(for: limit)
                return nil
            }
            let first = try await group.next() ?? nil
            group.cancelAll()
            try? await channel.close()
            return first ?? Reply(text: "", closedByServer: false)
        }
    }

    /// Ends the sending side, as a client that gives up on its body does.
    public func closeWriting() async {
        try? await channel.close(mode: .output)
    }

    public func close() async {
        try? await channel.close()
    }

    /// Sends `request` on a new connection and reads until the server closes it.
    public static func exchange(port: Int, _ request: String, limit: Duration = .seconds(20)) async throws -> Reply {
        try await open(port: port, sending: request).readUntilClosed(limit: limit)
    }
}

/// Why a look at a connection's socket failed.
public enum RawConnectionError: Error {
    case notInSocketTable(serverPort: Int, clientPort: Int)
}

/// Passes every byte the server sends to a stream, which ends when the server closes (or
/// half-closes) the connection.
private final class Collector: ChannelInboundHandler, Sendable {
    typealias InboundIn = ByteBuffer

    private let continuation: AsyncStream<ByteBuffer>.Continuation

    init(_ continuation: AsyncStream<ByteBuffer>.Continuation) {
        self.continuation = continuation
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        continuation.yield(unwrapInboundIn(data))
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case ChannelEvent.inputClosed = event { continuation.finish() }
        context.fireUserInboundEventTriggered(event)
    }

    func channelInactive(context: ChannelHandlerContext) {
        continuation.finish()
        context.fireChannelInactive()
    }
}
