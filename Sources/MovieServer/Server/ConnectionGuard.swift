import NIOCore
import NIOHTTP1

/// Sits between NIO's HTTP/1 parser and Hummingbird, where the request's version is still known,
/// and ends connections that HTTP says must end:
///
/// - a request head not complete within ``ConnectionLimits/headerTimeout`` (a half-sent request
///   line, a slowloris client) closes the connection;
/// - `CONNECT`, which this server never tunnels, is answered `405` and the connection closed;
/// - an HTTP/1.0 request without `keep-alive` has its connection closed after the answer.
final class ConnectionGuard: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    private let headerTimeout: TimeAmount
    private var headTimer: Scheduled<Void>?
    private var closesAfterAnswer = false
    private var refusing = false

    init(headerTimeout: Duration) {
        let (seconds, attoseconds) = headerTimeout.components
        self.headerTimeout = .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { armHeadTimer(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        armHeadTimer(context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        headTimer?.cancel()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        headTimer?.cancel()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !refusing else { return }
        if case let .head(head) = unwrapInboundIn(data) {
            headTimer?.cancel()
            headTimer = nil
            if head.method == .CONNECT {
                refuse(context, head: head)
                return
            }
            closesAfterAnswer = !head.isKeepAlive
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard case .end = unwrapOutboundIn(data) else {
            context.write(data, promise: promise)
            return
        }
        let written = promise ?? context.eventLoop.makePromise()
        context.write(data, promise: written)
        let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        written.futureResult.whenSuccess {
            let (handler, context) = bound.value
            if handler.closesAfterAnswer {
                context.close(promise: nil)
            } else {
                handler.armHeadTimer(context)
            }
        }
    }

    private func armHeadTimer(_ context: ChannelHandlerContext) {
        headTimer?.cancel()
        let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
        headTimer = context.eventLoop.scheduleTask(in: headerTimeout) {
            bound.value.close(promise: nil)
        }
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
}
