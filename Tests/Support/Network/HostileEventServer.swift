import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// An event-stream server on loopback, on raw NIO, that misbehaves as the request's first path
/// segment says (`/endless-line/api/events`), and counts the connections it got, the streams it
/// answered, the connections the client closed and the bytes of streams it managed to write. A
/// watchlist asked for under any behaviour is empty (`{"entries":[]}`), so that `marquee watchlist
/// --follow` reaches the stream; any other path but `…/api/events` is a `404`. An endless answer
/// is written a chunk at a time, the next once the last one reached the socket, so the server
/// itself holds no more than a chunk, and what it wrote is what the client's side took.
public final class HostileEventServer: Sendable {
    /// What the server does with a request.
    public enum Behaviour: String, Sendable, CaseIterable {
        /// A `ready` event, then a `data:` line that never ends.
        case endlessLine = "endless-line"
        /// A `ready` event, then `data:` lines without end and never a blank line.
        case endlessDataLines = "endless-data-lines"
        /// `retry: 0` and a `ready` event, then the stream ends.
        case retryZero = "retry-zero"
        /// `503` with `Retry-After: 0`.
        case retryAfterZero = "retry-after-zero"
        /// `503` with `Retry-After: -5`.
        case retryAfterNegative = "retry-after-negative"
        /// A `ready` event, then valid watchlist events of about 1 KB (``floodEvent``), as fast as
        /// the client takes them, for ever.
        case flood
    }

    /// The event a flood repeats: a watchlist change of movie 6, with a note of 900 bytes.
    public static let floodEvent = "id: 2\nevent: watchlist\ndata: {\"movieId\":6,\"note\":\"\(String(repeating: "n", count: 900))\",\"changedAt\":\"2026-01-01T00:00:00.000Z\",\"device\":\"hostile\",\"removed\":false}\n\n"

    /// The opening of every stream: `retry: 0`, then `ready` at id 1.
    public static let opening = "retry: 0\n\nid: 1\nevent: ready\ndata: {}\n\n"

    public let port: Int
    private let channel: any Channel
    private let counts: NIOLockedValueBox<Counts>

    struct Counts {
        var connections = 0
        var streams = 0
        var closed = 0
        var written = 0
    }

    private init(port: Int, channel: any Channel, counts: NIOLockedValueBox<Counts>) {
        self.port = port
        self.channel = channel
        self.counts = counts
    }

    /// The connections accepted so far.
    public var connections: Int { counts.withLockedValue { $0.connections } }
    /// The event-stream requests answered so far.
    public var streams: Int { counts.withLockedValue { $0.streams } }
    /// The connections that have closed so far.
    public var closedConnections: Int { counts.withLockedValue { $0.closed } }
    /// The bytes of event streams written to the socket so far, on every connection.
    public var writtenBytes: Int { counts.withLockedValue { $0.written } }

    /// The API root that plays `behaviour`: `http://127.0.0.1:port/<behaviour>/api/`.
    public func baseURL(for behaviour: Behaviour) -> URL {
        URL(string: "http://127.0.0.1:\(port)/\(behaviour.rawValue)/api/")!
    }

    public static func start() async throws -> HostileEventServer {
        let counts = NIOLockedValueBox(Counts())
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                counts.withLockedValue { $0.connections += 1 }
                channel.closeFuture.whenComplete { _ in counts.withLockedValue { $0.closed += 1 } }
                return channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(HostileEventHandler(
                        streamed: { counts.withLockedValue { $0.streams += 1 } },
                        wrote: { bytes in counts.withLockedValue { $0.written += bytes } }
                    ))
                }
            }
            .bind(host: "127.0.0.1", port: 0)
            .get()
        return HostileEventServer(port: channel.localAddress?.port ?? 0, channel: channel, counts: counts)
    }

    public func stop() async {
        try? await channel.close()
    }
}

/// Reads one request head, then plays the behaviour its path names.
private final class HostileEventHandler: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = ByteBuffer

    private let streamed: @Sendable () -> Void
    private let wrote: @Sendable (Int) -> Void
    private var head = ""
    private var answered = false

    init(streamed: @escaping @Sendable () -> Void, wrote: @escaping @Sendable (Int) -> Void) {
        self.streamed = streamed
        self.wrote = wrote
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !answered else { return }
        head += String(buffer: unwrapInboundIn(data))
        guard head.contains("\r\n\r\n") else { return }
        answered = true
        let path = head.split(separator: " ").dropFirst().first.map(String.init) ?? "/"
        let name = path.split(separator: "/").first.map(String.init) ?? ""
        guard let behaviour = HostileEventServer.Behaviour(rawValue: name) else {
            answer(context, status: "404 Not Found", headers: [], body: "")
            return
        }
        if path.hasSuffix("/api/watchlist") {
            answer(context, status: "200 OK", headers: ["Content-Type: application/json"], body: #"{"entries":[]}"#)
            return
        }
        guard path.hasSuffix("/api/events") || path.contains("/api/events?") else {
            answer(context, status: "404 Not Found", headers: [], body: "")
            return
        }
        streamed()
        switch behaviour {
        case .endlessLine:
            stream(context, opening: HostileEventServer.opening + "data: ", repeating: String(repeating: "x", count: 16_384))
        case .endlessDataLines:
            stream(context, opening: HostileEventServer.opening, repeating: String(repeating: "data: 0123456789abcdef\n", count: 700))
        case .retryZero:
            answer(context, status: "200 OK", headers: ["Content-Type: text/event-stream"], body: HostileEventServer.opening)
        case .retryAfterZero:
            answer(context, status: "503 Service Unavailable", headers: ["Retry-After: 0"], body: "")
        case .retryAfterNegative:
            answer(context, status: "503 Service Unavailable", headers: ["Retry-After: -5"], body: "")
        case .flood:
            stream(context, opening: HostileEventServer.opening, repeating: String(repeating: HostileEventServer.floodEvent, count: 16))
        }
    }

    /// A whole answer, then the connection closes.
    private func answer(_ context: ChannelHandlerContext, status: String, headers: [String], body: String) {
        let fields = ["HTTP/1.1 \(status)", "Content-Length: \(body.utf8.count)", "Connection: close"] + headers
        let channel = context.channel
        channel.writeAndFlush(ByteBuffer(string: fields.joined(separator: "\r\n") + "\r\n\r\n" + body)).whenComplete { _ in
            channel.close(promise: nil)
        }
    }

    /// A chunked event stream: `opening`, then `chunk` again and again until the client goes.
    private func stream(_ context: ChannelHandlerContext, opening: String, repeating chunk: String) {
        let channel = context.channel
        let head = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
        channel.writeAndFlush(ByteBuffer(string: head + Self.frame(opening)), promise: nil)
        Self.writeForever(ByteBuffer(string: Self.frame(chunk)), on: channel, wrote: wrote)
    }

    private static func writeForever(_ chunk: ByteBuffer, on channel: any Channel, wrote: @escaping @Sendable (Int) -> Void) {
        guard channel.isActive else { return }
        channel.writeAndFlush(chunk).whenSuccess {
            wrote(chunk.readableBytes)
            // The next write goes on the loop's queue, not the stack: a write that completes at
            // once would otherwise recurse.
            channel.eventLoop.execute { writeForever(chunk, on: channel, wrote: wrote) }
        }
    }

    private static func frame(_ text: String) -> String {
        String(text.utf8.count, radix: 16) + "\r\n" + text + "\r\n"
    }
}
