import Foundation
import Logging
import NIOCore
import NIOHTTP1

/// Answers `GET /api/events` (and `HEAD`) on the connection's event loop, before Hummingbird's
/// HTTP codec, and passes every other request on unchanged: an open stream holds no task, only
/// this handler and its place in the ``EventFeed``, which hands it events through a sink.
///
/// A stream request is checked off the loop (``EventStreams/open(authorization:lastEventID:address:sink:)``);
/// a refusal is answered as the router would and the connection goes on. An accepted stream
/// writes its head and its first lines, then the log's events after its cursor, page by page as
/// the reader takes them, then each event the feed hands on; events that arrive meanwhile wait,
/// and none is written twice or out of order (the cursor only grows). A reader that leaves more
/// than ``FeedSettings/queueCapacity`` events unread is disconnected: it resumes from its cursor.
/// The stream ends, and the connection closes, when the client goes, when its token stops being
/// accepted (its `exp` and the clock-skew leeway: the client renews it and reconnects), when a
/// person's sign-in ends (checked at each heartbeat), or when the server shuts down (the quiesce
/// event): every event written is whole, so the client's cursor is intact.
///
/// A stream request that comes while earlier requests on the connection are still being answered
/// waits for their answers (a shutdown or a half-close meanwhile closes the connection once they
/// are written). A request sent after an accepted stream closes the connection: a stream is the
/// connection's last answer.
final class EventStreamResponder: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    /// Told down the pipeline when a stream begins: the connection will carry nothing else.
    struct StreamBegan {}

    private enum State {
        /// Requests pass on.
        case passing
        /// A stream request waits for the answers to the requests before it.
        case waiting(HTTPRequestHead)
        /// A stream request is being checked. The feed's events are not kept: each is in the log,
        /// which the stream reads after its cursor once it is accepted.
        case opening(HTTPRequestHead)
        /// The head is written, and the log's events after the cursor are; the feed's wait.
        case catchingUp(cursor: Int64, held: [FeedEvent])
        case live(cursor: Int64)
        case ended
    }

    private let streams: EventStreams
    private let logger: Logger
    private var state = State.passing
    private var context: ChannelHandlerContext?
    private var passedOnUnanswered = 0
    /// A shutdown or a half-close came while a stream request waited for earlier answers.
    private var closesWhenAnswered = false
    private var readingStreamRequest = false
    private var heldRequestParts: [HTTPServerRequestPart] = []
    private var subscription: UInt64?
    private var identity: AccessTokenIdentity?
    private var owner: String?
    /// The end of the stream when its token lapses, called off when it ends before.
    private var tokenLapse: Scheduled<Void>?
    /// Events (and heartbeats) written but not yet taken by the socket.
    private var unsent = 0
    private var date = HTTPDate()
    private var requestStart = ContinuousClock.now

    /// The most request parts kept while a stream request is checked.
    private static let heldPartsLimit = 64

    init(streams: EventStreams, logger: Logger) {
        self.streams = streams
        self.logger = logger
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        leaveFeed()
        releaseConnection()
        self.context = nil
    }

    func channelInactive(context: ChannelHandlerContext) {
        leaveFeed()
        releaseConnection()
        state = .ended
        context.fireChannelInactive()
    }

    /// Whether this connection is counted among the feed's stream connections.
    private var holdsConnection = false

    private func releaseConnection() {
        guard holdsConnection else { return }
        holdsConnection = false
        streams.feed.connections.closed()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let part = unwrapInboundIn(data)
        if readingStreamRequest {
            if case .end = part { readingStreamRequest = false }
            return
        }
        switch state {
        case .passing:
            if case let .head(head) = part {
                if EventStreams.isStreamRequest(head.method, uri: head.uri) {
                    readingStreamRequest = true
                    if passedOnUnanswered == 0 { open(head, context: context) } else { state = .waiting(head) }
                    return
                }
                passedOnUnanswered += 1
            }
            context.fireChannelRead(data)
        case .waiting, .opening:
            heldRequestParts.append(part)
            if heldRequestParts.count > Self.heldPartsLimit { context.close(promise: nil) }
        case .catchingUp, .live, .ended:
            endAtOnce(context)
        }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        context.write(data, promise: promise)
        guard case .end = unwrapOutboundIn(data), passedOnUnanswered > 0 else { return }
        passedOnUnanswered -= 1
        if passedOnUnanswered == 0, case let .waiting(head) = state {
            context.flush()
            if closesWhenAnswered {
                context.close(promise: nil)
            } else {
                open(head, context: context)
            }
        }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        let ends = event is ChannelShouldQuiesceEvent || (event as? ChannelEvent) == .inputClosed
        guard ends else {
            context.fireUserInboundEventTriggered(event)
            return
        }
        switch state {
        case .catchingUp, .live:
            end()
        case .waiting:
            closesWhenAnswered = true
        case .opening:
            context.close(promise: nil)
        case .passing, .ended:
            context.fireUserInboundEventTriggered(event)
        }
    }

    // MARK: Opening

    private func open(_ head: HTTPRequestHead, context: ChannelHandlerContext) {
        state = .opening(head)
        requestStart = .now
        let eventLoop = context.eventLoop
        let handler = NIOLoopBound(self, eventLoop: eventLoop)
        let sink = StreamSink(eventLoop: eventLoop, handler: handler)
        let authorization = head.headers["Authorization"]
        let lastEventID = head.headers.first(name: "Last-Event-ID")
        let address = streams.address(peer: context.channel.remoteAddress, headers: head.headers)
        let streams = streams
        Task {
            let result: Result<EventStreams.Opened, ErrorAnswer>
            do throws(ErrorAnswer) {
                result = .success(try await streams.open(
                    authorization: authorization.isEmpty ? nil : authorization.joined(separator: ", "),
                    lastEventID: lastEventID, address: address, sink: sink
                ))
            } catch {
                result = .failure(error)
            }
            eventLoop.execute { handler.value.opened(result) }
        }
    }

    private func opened(_ result: Result<EventStreams.Opened, ErrorAnswer>) {
        guard case let .opening(head) = state, let context, context.channel.isActive else {
            if case let .success(opened) = result { streams.feed.unsubscribe(opened.subscription) }
            return
        }
        switch result {
        case let .failure(answer):
            refuse(head, with: answer, context: context)
        case let .success(opened) where head.method == .HEAD:
            streams.feed.unsubscribe(opened.subscription)
            context.write(wrapOutboundOut(.head(streamHead(head))), promise: nil)
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
            record(head, status: .ok)
            resumePassing(context)
        case let .success(opened):
            subscription = opened.subscription
            holdsConnection = true
            streams.feed.connections.opened()
            identity = opened.identity
            owner = opened.owner
            heldRequestParts = []
            state = .catchingUp(cursor: opened.start.cursor, held: [])
            var responseHead = streamHead(head)
            responseHead.headers.replaceOrAdd(name: "Connection", value: "close")
            context.write(wrapOutboundOut(.head(responseHead)), promise: nil)
            context.writeAndFlush(body(streams.opening(opened.start)), promise: nil)
            record(head, status: .ok)
            context.fireUserInboundEventTriggered(StreamBegan())
            endWhenTokenLapses(opened.identity, context: context)
            catchUp(from: opened.start.cursor, owner: opened.owner, eventLoop: context.eventLoop)
        }
    }

    private func streamHead(_ request: HTTPRequestHead) -> HTTPResponseHead {
        HTTPResponseHead(version: request.version, status: .ok, headers: [
            "Content-Type": "text/event-stream; charset=utf-8", "Cache-Control": "no-store", "X-Accel-Buffering": "no",
            "Server": "Marquee", "Date": date.now(),
        ])
    }

    private func refuse(_ request: HTTPRequestHead, with answer: ErrorAnswer, context: ChannelHandlerContext) {
        let json = ByteBuffer(string: answer.json)
        var headers = HTTPHeaders()
        for field in answer.headerFields { headers.add(name: field.name.rawName, value: field.value) }
        headers.replaceOrAdd(name: "Content-Type", value: "application/json")
        headers.replaceOrAdd(name: "Cache-Control", value: "no-store")
        headers.replaceOrAdd(name: "Content-Length", value: String(json.readableBytes))
        headers.add(name: "Server", value: "Marquee")
        headers.add(name: "Date", value: date.now())
        let status = HTTPResponseStatus(statusCode: Int(answer.status.code))
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: request.version, status: status, headers: headers))), promise: nil)
        if request.method != .HEAD { context.write(wrapOutboundOut(.body(.byteBuffer(json))), promise: nil) }
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        record(request, status: status)
        resumePassing(context)
    }

    /// Back to passing requests on, beginning with those that came while the stream request was checked.
    private func resumePassing(_ context: ChannelHandlerContext) {
        state = .passing
        let held = heldRequestParts
        heldRequestParts = []
        for part in held { channelRead(context: context, data: wrapInboundOut(part)) }
        if !held.isEmpty { context.fireChannelReadComplete() }
    }

    private func record(_ request: HTTPRequestHead, status: HTTPResponseStatus) {
        streams.metrics.recordRequest(route: "/api/events", method: request.method.rawValue, status: Int(status.code), duration: .now - requestStart)
        if logger.logLevel <= .info {
            logger.info("\(request.method) \(request.uri.prefix { $0 != "?" }) \(status.code)")
        }
    }

    // MARK: Writing

    /// Writes the log's events after `cursor`, a page at a time, each once the one before it is
    /// taken by the socket; then the events that waited.
    private func catchUp(from cursor: Int64, owner: String?, eventLoop: any EventLoop) {
        let handler = NIOLoopBound(self, eventLoop: eventLoop)
        let streams = streams
        Task {
            var cursor = cursor
            do {
                while true {
                    let page = try await streams.catchUp(after: cursor, owner: owner)
                    guard let last = page.last else { break }
                    let written = try await eventLoop.flatSubmit { handler.value.writeCaughtUp(page, on: eventLoop) }.get()
                    guard written else { return }
                    cursor = last.sequence
                    if page.count < EventStreams.pageSize { break }
                }
                eventLoop.execute { handler.value.caughtUp() }
            } catch {
                eventLoop.execute { handler.value.end() }
            }
        }
    }

    /// Writes a page read from the log; the future says when the socket took it, false once the
    /// stream is gone.
    private func writeCaughtUp(_ page: [FeedEvent], on eventLoop: any EventLoop) -> EventLoopFuture<Bool> {
        guard case let .catchingUp(cursor, held) = state, let context else { return eventLoop.makeSucceededFuture(false) }
        let fresh = page.filter { $0.sequence > cursor && $0.isVisible(to: owner) }
        guard let last = fresh.last else { return eventLoop.makeSucceededFuture(true) }
        state = .catchingUp(cursor: last.sequence, held: held.filter { $0.sequence > last.sequence })
        let promise = context.eventLoop.makePromise(of: Void.self)
        context.writeAndFlush(body(fresh.map(EventStreams.frame).joined()), promise: promise)
        return promise.futureResult.map { true }
    }

    private func caughtUp() {
        guard case let .catchingUp(cursor, held) = state else { return }
        state = .live(cursor: cursor)
        if !held.isEmpty { receive(held) }
    }

    /// Events from the feed (any of them perhaps not for this reader, or already written).
    fileprivate func receive(_ events: [FeedEvent]) {
        switch state {
        case let .catchingUp(cursor, held):
            let kept = held + events.filter { $0.sequence > cursor && $0.isVisible(to: owner) }
            state = .catchingUp(cursor: cursor, held: kept)
            if kept.count > streams.feed.settings.queueCapacity + EventStreams.pageSize { end() }
        case let .live(cursor):
            var text = "", last = cursor, count = 0
            for event in events where event.sequence > last && event.isVisible(to: owner) {
                text += EventStreams.frame(event)
                last = event.sequence
                count += 1
            }
            guard count > 0 else { return }
            state = .live(cursor: last)
            send(text, items: count)
        case .passing, .waiting, .opening, .ended:
            break
        }
    }

    /// Ends the stream when its token stops being accepted, by the server's clock as it stands now
    /// (``heartbeat()`` checks it again, for a clock moved since).
    private func endWhenTokenLapses(_ identity: AccessTokenIdentity, context: ChannelHandlerContext) {
        let remaining = identity.acceptedUntil.timeIntervalSince(streams.check.tokens.configuration.now())
        let handler = NIOLoopBound(self, eventLoop: context.eventLoop)
        tokenLapse = context.eventLoop.scheduleTask(in: .milliseconds(Int64(max(0, remaining) * 1000))) { handler.value.end() }
    }

    fileprivate func heartbeat() {
        guard case .live = state, context != nil else { return }
        guard let identity, identity.acceptedUntil > streams.check.tokens.configuration.now() else {
            end()
            return
        }
        send(":\n\n", items: 1)
        checkSignIn()
    }

    /// Ends a person's stream once their sign-in is found ended: at each heartbeat, and at once
    /// when the feed hands on a sign-out of theirs.
    fileprivate func checkSignIn() {
        guard let context, let identity, identity.account != nil else { return }
        switch state {
        case .catchingUp, .live: break
        case .passing, .waiting, .opening, .ended: return
        }
        let handler = NIOLoopBound(self, eventLoop: context.eventLoop)
        let eventLoop = context.eventLoop, tokens = streams.check.tokens
        Task {
            do {
                try await tokens.confirmSignedIn(identity)
            } catch {
                eventLoop.execute { handler.value.end() }
            }
        }
    }

    /// Writes what the feed handed on; a reader that has left too much unread is disconnected,
    /// and so is one whose connection can no longer be written.
    private func send(_ text: String, items: Int) {
        guard let context else { return }
        guard unsent < streams.feed.settings.queueCapacity else {
            logger.debug("an event stream's reader left \(unsent) events unread: disconnected")
            endAtOnce(context)
            return
        }
        unsent += items
        let promise = context.eventLoop.makePromise(of: Void.self)
        let handler = NIOLoopBound(self, eventLoop: context.eventLoop)
        promise.futureResult.whenComplete { result in
            let handler = handler.value
            handler.unsent -= items
            if case .failure = result, let context = handler.context { handler.endAtOnce(context) }
        }
        context.writeAndFlush(body(text), promise: promise)
    }

    private func body(_ text: String) -> NIOAny {
        wrapOutboundOut(.body(.byteBuffer(ByteBuffer(string: text))))
    }

    /// Ends the stream after its last whole event, and the connection with it: once the end is
    /// written, or after ``closingGrace`` for a reader that takes nothing more.
    private func end() {
        switch state {
        case .catchingUp, .live:
            leaveFeed()
            state = .ended
            guard let context else { return }
            let closing = NIOLoopBound(context, eventLoop: context.eventLoop)
            context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in closing.value.close(promise: nil) }
            context.eventLoop.scheduleTask(in: Self.closingGrace) { closing.value.close(promise: nil) }
        case .passing, .waiting, .opening, .ended:
            break
        }
    }

    /// How long an ended stream's last bytes may take to be written before the connection closes.
    static let closingGrace = TimeAmount.seconds(2)

    /// Ends the stream and closes its connection now: what is unsent is dropped, and the client
    /// resumes from the last whole event it read.
    private func endAtOnce(_ context: ChannelHandlerContext) {
        leaveFeed()
        state = .ended
        context.close(promise: nil)
    }

    private func leaveFeed() {
        tokenLapse?.cancel()
        tokenLapse = nil
        guard let subscription else { return }
        self.subscription = nil
        streams.feed.unsubscribe(subscription)
    }
}

/// The feed's way to an ``EventStreamResponder``: it hops to the stream's event loop.
private final class StreamSink: FeedSink {
    let eventLoop: any EventLoop
    let handler: NIOLoopBound<EventStreamResponder>

    init(eventLoop: any EventLoop, handler: NIOLoopBound<EventStreamResponder>) {
        self.eventLoop = eventLoop
        self.handler = handler
    }

    func receive(_ events: [FeedEvent]) {
        eventLoop.execute { [handler] in handler.value.receive(events) }
    }

    func heartbeat() {
        eventLoop.execute { [handler] in handler.value.heartbeat() }
    }

    func signInMayHaveEnded() {
        eventLoop.execute { [handler] in handler.value.checkSignIn() }
    }
}
