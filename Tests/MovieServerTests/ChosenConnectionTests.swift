import Foundation
@testable import MovieServer
import NIOCore
import NIOEmbedded
import NIOHTTP1
import Testing

/// A connection chosen at the cap to make room (``ConnectionGuard/closeToMakeRoom(ifStill:closed:)``):
/// it reads nothing more, closes once what was queued on it is out, and after at most the linger
/// time when its client does not read, on the event loop's own clock.
@Suite("A connection chosen at the cap")
struct ChosenConnectionTests {
    @Test("closes once its queued answer is written, and says so once")
    func closesOnceWritten() async throws {
        let connection = try await GuardedTestConnection(clientReads: true)
        try connection.answerOneRequest()
        #expect(connection.choose(asItStands: try #require(connection.connectionGuard.standing)))
        connection.channel.embeddedEventLoop.run()
        #expect(!connection.channel.isActive)
        #expect(connection.closes.count == 1)
    }

    @Test("whose client does not read what was queued closes 2 s after it was chosen, not before")
    func closesAfterLingerWhenClientDoesNotRead() async throws {
        let connection = try await GuardedTestConnection(clientReads: false)
        try connection.answerOneRequest()
        #expect(connection.choose(asItStands: try #require(connection.connectionGuard.standing)))
        connection.channel.embeddedEventLoop.advanceTime(by: .milliseconds(1999))
        #expect(connection.channel.isActive)
        #expect(connection.closes.count == 0)
        connection.channel.embeddedEventLoop.advanceTime(by: .milliseconds(1))
        #expect(!connection.channel.isActive)
        #expect(connection.closes.count == 1)
    }

    @Test("reads no request that arrives after it was chosen: the client sees the close before any answer")
    func readsNothingMore() async throws {
        let connection = try await GuardedTestConnection(clientReads: false)
        try connection.answerOneRequest()
        #expect(connection.choose(asItStands: try #require(connection.connectionGuard.standing)))
        #expect(connection.connectionGuard.standing == nil)
        try connection.channel.writeInbound(ByteBuffer(string: GuardedTestConnection.request))
        #expect(try connection.channel.readInbound(as: HTTPServerRequestPart.self) == nil)
        connection.channel.embeddedEventLoop.advanceTime(by: ConnectionGuard.lingerTime)
        #expect(!connection.channel.isActive)
    }

    @Test("is left open when it no longer stands as it did at the look (a request came meanwhile)")
    func notClosedWhenBusyAgain() async throws {
        let connection = try await GuardedTestConnection(clientReads: true)
        try connection.answerOneRequest()
        let standing = try #require(connection.connectionGuard.standing)
        try connection.channel.writeInbound(ByteBuffer(string: GuardedTestConnection.request))
        #expect(!connection.choose(asItStands: standing))
        connection.channel.embeddedEventLoop.advanceTime(by: ConnectionGuard.lingerTime)
        #expect(connection.channel.isActive)
        #expect(connection.closes.count == 0)
        _ = try connection.channel.finish(acceptAlreadyClosed: true)
    }
}

/// A guarded HTTP/1 pipeline on an embedded channel, as ``GuardedHTTP1Channel`` builds it (the
/// head's watch, the codec, the guard), with a socket that can stop taking writes.
private struct GuardedTestConnection {
    static let request = "GET /api/movies/1 HTTP/1.1\r\nHost: marquee.test\r\n\r\n"

    let channel = EmbeddedChannel()
    let connectionGuard = ConnectionGuard(limits: ConnectionLimits())
    let closes = CloseCount()

    init(clientReads: Bool) async throws {
        let pipeline = channel.pipeline.syncOperations
        try pipeline.addHandler(ByteToMessageHandler(HTTPRequestDecoder()))
        try pipeline.addHandler(HTTPResponseEncoder())
        try pipeline.addHandler(connectionGuard)
        try pipeline.addHandler(HeadArrivalWatch(connectionGuard), position: .first)
        if !clientReads { try pipeline.addHandler(UnreadSocket(), position: .first) }
        try await channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 8080)).get()
    }

    /// Chooses the connection to make room if it still stands as `standing`, counting its close in
    /// ``closes``; whether it was chosen.
    func choose(asItStands standing: ConnectionGuard.Standing) -> Bool {
        let closes = closes
        return connectionGuard.closeToMakeRoom(ifStill: standing) { closes.add() }
    }

    /// One request read and answered: the connection then stands idle.
    func answerOneRequest() throws {
        try channel.writeInbound(ByteBuffer(string: Self.request))
        while try channel.readInbound(as: HTTPServerRequestPart.self) != nil {}
        var headers = HTTPHeaders()
        headers.add(name: "Content-Length", value: "0")
        channel.write(HTTPServerResponsePart.head(HTTPResponseHead(version: .http1_1, status: .ok, headers: headers)), promise: nil)
        channel.writeAndFlush(HTTPServerResponsePart.end(nil), promise: nil)
    }
}

/// A socket whose client reads nothing: writes stay queued until the connection closes, when
/// they fail.
private final class UnreadSocket: ChannelOutboundHandler, RemovableChannelHandler {
    typealias OutboundIn = ByteBuffer

    private var queued: [EventLoopPromise<Void>] = []

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if let promise { queued.append(promise) }
    }

    func flush(context: ChannelHandlerContext) {}

    func close(context: ChannelHandlerContext, mode: CloseMode, promise: EventLoopPromise<Void>?) {
        failQueued()
        context.close(mode: mode, promise: promise)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        failQueued()
    }

    private func failQueued() {
        let failed = queued
        queued = []
        for promise in failed { promise.fail(ChannelError.ioOnClosedChannel) }
    }
}

/// How many times a chosen connection said it closed.
private final class CloseCount: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0

    var count: Int { lock.withLock { value } }

    func add() {
        lock.withLock { value += 1 }
    }
}
