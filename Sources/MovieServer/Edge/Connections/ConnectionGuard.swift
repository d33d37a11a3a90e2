import NIOCore
import NIOHTTP1

/// Sits between NIO's HTTP/1 parser and everything that answers requests, where the request's
/// version is still known and every request and every answer passes, and ends connections that
/// must end:
///
/// - a request head not complete within ``ConnectionLimits/headerTimeout`` of the connection
///   opening, or of its first byte on a kept-alive connection (a half-sent request line, a
///   slowloris client);
/// - a connection with nothing read or written for ``ConnectionLimits/idleTimeout``, between
///   requests or while a request is being read (never while the server is still answering): an
///   idle kept-alive connection lasts that long, as a client's pool expects, not the header timeout;
/// - a request body that arrives slower than ``minimumBodyRate`` on average once the header
///   timeout has passed since its head (a byte a minute would otherwise hold the connection for
///   as long as the client likes);
/// - `CONNECT`, which this server never tunnels: answered `405`, then closed;
/// - an HTTP/1.1 request without one `Host` header, or any with two (RFC 9112 §3.2), an HTTP/1.0
///   request with `Transfer-Encoding` (its framing is faulty, RFC 9112 §6.1), and a head the
///   decoder cannot read (a URL or header block over the limit, broken syntax): a JSON `400`, then
///   closed. A refusal is an answer like any other: it is written once every request before it
///   is answered, so answers leave in the order of the requests, and nothing after it is read;
/// - a request answered before all of it was read (a `413`) on a connection that closes after
///   it: its answer is sent, the output is shut, and what the client still sends is drained for
///   at most ``lingerLimit`` bytes or ``lingerTime``, so the client reads the answer instead of a
///   reset, and does not wait for a timeout;
/// - a request without keep-alive (HTTP/1.0 by default, or `Connection: close`): closed once
///   every request read on it is answered, and no request after it is read; the last answer
///   says `Connection: close`, whether the event loop or the router gives it;
/// - a kept-alive connection with nothing to do while the server is at its connection cap (idle
///   from its last answer until bytes of the next request arrive): the oldest is closed to admit
///   a new client;
/// - at the cap, before those, a connection that has sent no whole request head within
///   ``IdleConnections/silenceAllowedAtCap`` of its opening, or of the first byte of its next head.
///
/// The connection's ``standing`` says which it is; ``IdleConnections`` reads it only at the cap.
///
/// The timeouts share one timer that is moved only when a deadline comes closer, so a busy
/// connection schedules nothing per request.
final class ConnectionGuard: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    private let headerTimeout: TimeAmount
    private let idleTimeout: TimeAmount
    /// When the wait for the next request head began: the connection's opening, or the first byte
    /// of a head after an answer; `nil` while a request is read or answered, or while a kept-alive
    /// connection has received nothing since its last answer.
    private var awaitingHeadSince: NIODeadline?
    /// Whether bytes have arrived since the last request head was read, outside a request's body.
    private var headBytesPending = false
    private var lastActivity = NIODeadline.now()
    private var isReadingRequest = false
    /// When the request being read sent its head, and how many body bytes came since.
    private var bodyStart: NIODeadline?
    private var bodyBytes = 0
    private var unanswered = 0
    private var closesAfterAnswers = false
    /// Whether the request that closes the connection was read whole: nothing after it is read.
    private var readsNoMore = false
    private var refusing = false
    /// A refusal that waits for the answers to the requests before it.
    private var pendingRefusal: (head: HTTPResponseHead, body: ByteBuffer)?
    private var timer: (task: Scheduled<Void>, deadline: NIODeadline)?
    private var lingering: (drained: Int, deadline: Scheduled<Void>)?
    private let connections: IdleConnections?
    /// The connections of this one's event loop, which it joins while open.
    private var loopConnections: LoopConnections?
    private var context: ChannelHandlerContext?
    /// The context of the ``HeadArrivalWatch`` before the HTTP codec, where bytes go out as they are.
    private var byteContext: ChannelHandlerContext?
    private var isClosingToMakeRoom = false

    /// The least a request body must average, in bytes a second, once the header timeout has
    /// passed since its head.
    static let minimumBodyRate = 1024

    /// The most a lingering close drains, and for how long.
    static let lingerLimit = 256 * 1024
    static let lingerTime = TimeAmount.seconds(2)

    init(limits: ConnectionLimits, connections: IdleConnections? = nil) {
        headerTimeout = Self.timeAmount(limits.headerTimeout)
        idleTimeout = Self.timeAmount(limits.idleTimeout)
        self.connections = connections
    }

    /// Whether every request read is answered, the answers are written, and nothing of the next
    /// request has arrived.
    private var isIdle: Bool {
        unanswered == 0 && !isReadingRequest && !headBytesPending && !closesAfterAnswers && !refusing
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        if context.channel.isActive { start(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        start(context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        stopTimer()
        lingering?.deadline.cancel()
        leave()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        stopTimer()
        leave()
        self.context = nil
        byteContext = nil
    }

    /// The ``HeadArrivalWatch`` before the decoder was added, with its context.
    func watchAdded(_ context: ChannelHandlerContext) {
        byteContext = context
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !refusing, !readsNoMore, !isClosingToMakeRoom else { return }
        if lingering != nil {
            drain(context, unwrapInboundIn(data))
            return
        }
        // With a watch before the decoder, the bytes these parts came in were just timed.
        if byteContext == nil { lastActivity = .now() }
        switch unwrapInboundIn(data) {
        case let .head(head):
            awaitingHeadSince = nil
            headBytesPending = false
            if head.method == .CONNECT {
                refuse(context, version: head.version, status: .methodNotAllowed, extraHeaders: [("Allow", "GET, HEAD, POST")],
                       body: #"{"error":"method_not_allowed","error_description":"This server does not tunnel CONNECT requests."}"#)
                return
            }
            if let problem = Self.headProblem(head) {
                refuse(context, version: head.version, status: .badRequest, body: ErrorAnswer.badRequest(problem).json)
                return
            }
            isReadingRequest = true
            bodyStart = lastActivity
            bodyBytes = 0
            unanswered += 1
            if !head.isKeepAlive { closesAfterAnswers = true }
        case let .body(buffer):
            bodyBytes += buffer.readableBytes
        case .end:
            isReadingRequest = false
            bodyStart = nil
            readsNoMore = closesAfterAnswers
            if unanswered == 0 {
                context.fireChannelRead(data)
                answeredBeforeReadingAll(context)
                return
            }
        }
        context.fireChannelRead(data)
    }

    /// The end of a request whose answer was sent before all of it was read.
    private func answeredBeforeReadingAll(_ context: ChannelHandlerContext) {
        if closesAfterAnswers {
            context.close(promise: nil)
        } else {
            awaitNextHead(context)
        }
    }

    /// Bytes as they arrive, before the HTTP decoder (from ``HeadArrivalWatch``): the first ones
    /// after an answer start the header timeout of the next request.
    func bytesArrived(context: ChannelHandlerContext) {
        lastActivity = .now()
        guard !isReadingRequest, !refusing, !readsNoMore else { return }
        headBytesPending = true
        if unanswered == 0, awaitingHeadSince == nil {
            awaitingHeadSince = lastActivity
            scheduleCheck(context)
        }
    }

    /// Every request read is answered: the header timeout runs if part of the next head is in,
    /// the idle timeout otherwise.
    private func awaitNextHead(_ context: ChannelHandlerContext) {
        awaitingHeadSince = headBytesPending ? lastActivity : nil
        scheduleCheck(context)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let part = unwrapOutboundIn(data)
        if case let .head(head) = part, closesAfterAnswers, unanswered == 1 {
            context.write(wrapOutboundOut(.head(Self.closing(head))), promise: promise)
            return
        }
        guard case .end = part, unanswered > 0 else {
            context.write(data, promise: promise)
            return
        }
        answerEnds(context, writing: data, promise: promise)
    }

    /// Writes a whole answer made on the event loop (``EventLoopResponder``) on from this handler,
    /// without passing through the handlers after it, and counts it as the answer to the oldest
    /// request unanswered, as if its parts had been written through ``write(context:data:promise:)``.
    /// Returns `false`, writing nothing, when this handler is not in a pipeline or no request waits
    /// for an answer.
    func writeWholeAnswer(_ head: HTTPResponseHead, body: ByteBuffer?) -> Bool {
        guard let context, unanswered > 0 else { return false }
        context.write(wrapOutboundOut(.head(closesAfterAnswers && unanswered == 1 ? Self.closing(head) : head)), promise: nil)
        if let body { context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil) }
        answerEnds(context, writing: wrapOutboundOut(.end(nil)), promise: nil)
        return true
    }

    /// `head` saying that the connection closes after it, unless it is an interim (1xx) answer:
    /// the answer to the last request read on a connection that closes, routed or not.
    private static func closing(_ head: HTTPResponseHead) -> HTTPResponseHead {
        guard head.status.code >= 200 else { return head }
        var head = head
        head.headers.replaceOrAdd(name: "Connection", value: "close")
        return head
    }

    /// The last part of the answer to the oldest request unanswered is written: a refusal that
    /// waited for it is written, or the connection lingers, closes, or waits for the next request.
    private func answerEnds(_ context: ChannelHandlerContext, writing data: NIOAny, promise: EventLoopPromise<Void>?) {
        unanswered -= 1
        lastActivity = .now()
        if unanswered == 0, let refusal = pendingRefusal {
            pendingRefusal = nil
            context.write(data, promise: promise)
            writeAndClose(context, refusal)
            return
        }
        if unanswered == 0, isReadingRequest, closesAfterAnswers {
            lingerAfter(context, writing: data, promise: promise)
            return
        }
        guard unanswered == 0, !isReadingRequest else {
            context.write(data, promise: promise)
            return
        }
        if closesAfterAnswers {
            let written = promise ?? context.eventLoop.makePromise()
            context.write(data, promise: written)
            let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
            written.futureResult.whenComplete { _ in bound.value.close(promise: nil) }
            return
        }
        context.write(data, promise: promise)
        awaitNextHead(context)
        if let connections, connections.isFull, isIdle { connections.makeRoom() }
    }

    /// Where the connection stands for ``IdleConnections`` at the cap: silent since its opening or
    /// its next head's first byte, idle since its last answer, or neither (reading or answering a
    /// request, closing).
    enum Standing: Equatable {
        case silent(since: NIODeadline)
        case idle(since: NIODeadline)
    }

    var standing: Standing? {
        guard unanswered == 0, !isReadingRequest, !refusing, !closesAfterAnswers, !isClosingToMakeRoom, lingering == nil else { return nil }
        if let awaitingHeadSince { return .silent(since: awaitingHeadSince) }
        return headBytesPending ? nil : .idle(since: lastActivity)
    }

    /// Closes the connection to admit another if it still stands as `expected`, once what was
    /// written before is out (an answer still in the socket's queue is not cut off), or after
    /// ``lingerTime`` when the client does not read it; calls `closed` once it is closed. A request
    /// that arrives meanwhile is not read: the client sees the connection close before any answer
    /// to it, which an HTTP client retries on a new connection.
    func closeToMakeRoom(ifStill expected: Standing, closed: @escaping @Sendable () -> Void) -> Bool {
        guard let context, standing == expected else { return false }
        isClosingToMakeRoom = true
        context.channel.closeFuture.whenComplete { _ in closed() }
        guard let byteContext else {
            context.close(promise: nil)
            return true
        }
        let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
        let written = context.eventLoop.makePromise(of: Void.self)
        byteContext.writeAndFlush(NIOAny(ByteBuffer()), promise: written)
        let deadline = context.eventLoop.scheduleTask(in: Self.lingerTime) { bound.value.close(promise: nil) }
        written.futureResult.whenComplete { _ in
            deadline.cancel()
            bound.value.close(promise: nil)
        }
        return true
    }

    private func join(_ context: ChannelHandlerContext) {
        guard let connections, loopConnections == nil else { return }
        let joined = connections.connections(on: context.eventLoop)
        joined.join(self)
        loopConnections = joined
    }

    private func leave() {
        loopConnections?.leave(self)
        loopConnections = nil
    }

    private func start(_ context: ChannelHandlerContext) {
        lastActivity = .now()
        awaitingHeadSince = lastActivity
        scheduleCheck(context)
        join(context)
    }

    /// The earliest moment the connection may have to be closed, if any.
    private var dueDeadline: NIODeadline? {
        var due: NIODeadline?
        if let awaitingHeadSince { due = awaitingHeadSince + headerTimeout }
        if isReadingRequest || unanswered == 0 {
            let idle = lastActivity + idleTimeout
            due = due.map { min($0, idle) } ?? idle
        }
        if isReadingRequest, let bodyStart {
            let earned = TimeAmount.nanoseconds(Int64(bodyBytes) * 1_000_000_000 / Int64(Self.minimumBodyRate))
            let slow = bodyStart + headerTimeout + earned
            due = due.map { min($0, slow) } ?? slow
        }
        return due
    }

    private func scheduleCheck(_ context: ChannelHandlerContext) {
        guard let due = dueDeadline else { return }
        if let timer, timer.deadline <= due { return }
        timer?.task.cancel()
        let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        let task = context.eventLoop.scheduleTask(deadline: due) {
            let (handler, context) = bound.value
            handler.timer = nil
            handler.check(context)
        }
        timer = (task, due)
    }

    private func check(_ context: ChannelHandlerContext) {
        guard let due = dueDeadline else { return }
        if due <= .now() {
            context.close(promise: nil)
        } else {
            scheduleCheck(context)
        }
    }

    private func stopTimer() {
        timer?.task.cancel()
        timer = nil
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard let parserError = error as? HTTPParserError, !isReadingRequest else {
            context.fireErrorCaught(error)
            return
        }
        // Bytes after a refused head, or after the request that closes the connection, are not read.
        if refusing || readsNoMore { return }
        let message = parserError == .headerOverflow
            ? "The request's URL or headers are longer than this server reads; send a shorter request."
            : "The request line or headers cannot be read as HTTP/1.1."
        refuse(context, version: .http1_1, status: .badRequest, body: ErrorAnswer.badRequest(message).json)
    }

    /// Why a request's head is not acceptable: HTTP/1.1 needs exactly one `Host` header, and no
    /// request may have two (RFC 9112 §3.2); an HTTP/1.0 request cannot be framed by
    /// `Transfer-Encoding` (RFC 9112 §6.1).
    private static func headProblem(_ head: HTTPRequestHead) -> String? {
        var count = 0
        for (name, _) in head.headers where isHost(name) { count += 1 }
        if count > 1 { return "The request has \(count) Host headers; send exactly one." }
        if count == 0, head.version.major == 1, head.version.minor >= 1 { return "An HTTP/1.1 request needs a Host header." }
        if (head.version.major, head.version.minor) < (1, 1), head.headers.contains(name: "Transfer-Encoding") {
            return "An HTTP/1.0 request cannot be sent with Transfer-Encoding; send its length in Content-Length, or use HTTP/1.1."
        }
        return nil
    }

    /// Whether a header's name is `Host`, in any case (counted without making a list of values).
    private static func isHost(_ name: String) -> Bool {
        name.utf8.count == 4 && name.utf8.elementsEqual("host".utf8) { $0 | 0x20 == $1 }
    }

    /// Answers a request this handler refuses itself, then closes: at once, or once every request
    /// read before it is answered. Nothing after it is read.
    private func refuse(
        _ context: ChannelHandlerContext, version: HTTPVersion, status: HTTPResponseStatus,
        extraHeaders: [(String, String)] = [], body: String
    ) {
        refusing = true
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: "application/json")
        headers.add(name: "Content-Length", value: String(body.utf8.count))
        for (name, value) in extraHeaders { headers.add(name: name, value: value) }
        headers.add(name: "Connection", value: "close")
        let refusal = (HTTPResponseHead(version: version, status: status, headers: headers), ByteBuffer(string: body))
        if unanswered == 0 {
            writeAndClose(context, refusal)
        } else {
            pendingRefusal = refusal
        }
    }

    private func writeAndClose(_ context: ChannelHandlerContext, _ refusal: (head: HTTPResponseHead, body: ByteBuffer)) {
        context.write(wrapOutboundOut(.head(refusal.head)), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(refusal.body))), promise: nil)
        let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in bound.value.close(promise: nil) }
    }

    /// Writes the last part of an answer sent before its request was read, shuts the output once
    /// it is out, and drains the rest of the request for a bounded time and size, then closes.
    private func lingerAfter(_ context: ChannelHandlerContext, writing data: NIOAny, promise: EventLoopPromise<Void>?) {
        let written = promise ?? context.eventLoop.makePromise()
        context.write(data, promise: written)
        context.flush()
        let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        let deadline = context.eventLoop.scheduleTask(in: Self.lingerTime) {
            bound.value.1.close(promise: nil)
        }
        lingering = (0, deadline)
        written.futureResult.whenComplete { _ in
            bound.value.1.close(mode: .output, promise: nil)
        }
    }

    private func drain(_ context: ChannelHandlerContext, _ part: HTTPServerRequestPart) {
        guard var lingering else { return }
        switch part {
        case let .body(buffer):
            lingering.drained += buffer.readableBytes
            self.lingering = lingering
            if lingering.drained > Self.lingerLimit { context.close(promise: nil) }
        case .end, .head:
            context.close(promise: nil)
        }
    }

    private static func timeAmount(_ duration: Duration) -> TimeAmount {
        let (seconds, attoseconds) = duration.components
        return .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}
