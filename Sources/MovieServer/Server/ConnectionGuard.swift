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
/// - `CONNECT`, which this server never tunnels: answered `405`, then closed;
/// - a request without keep-alive (HTTP/1.0 by default, or `Connection: close`): closed once
///   every request read on it is answered.
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
    private var unanswered = 0
    private var closesAfterAnswers = false
    private var refusing = false
    private var timer: (task: Scheduled<Void>, deadline: NIODeadline)?

    init(limits: ConnectionLimits) {
        headerTimeout = Self.timeAmount(limits.headerTimeout)
        idleTimeout = Self.timeAmount(limits.idleTimeout)
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { start(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        start(context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        stopTimer()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        stopTimer()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !refusing else { return }
        lastActivity = .now()
        switch unwrapInboundIn(data) {
        case let .head(head):
            awaitingHeadSince = nil
            headBytesPending = false
            if head.method == .CONNECT {
                refuse(context, head: head)
                return
            }
            isReadingRequest = true
            unanswered += 1
            if !head.isKeepAlive { closesAfterAnswers = true }
        case .body:
            break
        case .end:
            isReadingRequest = false
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
        guard !isReadingRequest, !refusing else { return }
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
        guard case .end = unwrapOutboundIn(data), unanswered > 0 else {
            context.write(data, promise: promise)
            return
        }
        unanswered -= 1
        lastActivity = .now()
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
    }

    private func start(_ context: ChannelHandlerContext) {
        lastActivity = .now()
        awaitingHeadSince = lastActivity
        scheduleCheck(context)
    }

    /// The earliest moment the connection may have to be closed, if any.
    private var dueDeadline: NIODeadline? {
        var due: NIODeadline?
        if let awaitingHeadSince { due = awaitingHeadSince + headerTimeout }
        if isReadingRequest || unanswered == 0 {
            let idle = lastActivity + idleTimeout
            due = due.map { min($0, idle) } ?? idle
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

    private func refuse(_ context: ChannelHandlerContext, head: HTTPRequestHead) {
        refusing = true
        let body = #"{"error":"method_not_allowed","error_description":"This server does not tunnel CONNECT requests."}"#
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: "application/json")
        headers.add(name: "Content-Length", value: String(body.utf8.count))
        headers.add(name: "Allow", value: "GET, HEAD, POST")
        headers.add(name: "Connection", value: "close")
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: .methodNotAllowed, headers: headers))), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(string: body)))), promise: nil)
        let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in bound.value.close(promise: nil) }
    }

    private static func timeAmount(_ duration: Duration) -> TimeAmount {
        let (seconds, attoseconds) = duration.components
        return .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}
