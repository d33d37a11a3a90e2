import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1

/// Decides what a connection is at its first request: a connection whose first request opens an
/// event stream (``EventStreamResponder/StreamBegan``) is served on its event loop alone, so it
/// holds no task; at any other request, Hummingbird's HTTP handlers are added behind this one and
/// the request is passed to them. Until then Hummingbird's connection task waits for the verdict
/// (``GuardedConnection``), and a connection closed, asked to quiesce or half-closed by its client
/// before any verdict is given up (the answers given on the event loop before it are written).
final class FirstRequestSwitch: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    private let verdict: EventLoopPromise<GuardedConnection.Kind>
    private let logger: Logger
    private var decided = false

    init(verdict: EventLoopPromise<GuardedConnection.Kind>, logger: Logger) {
        self.verdict = verdict
        self.logger = logger
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !decided else {
            context.fireChannelRead(data)
            return
        }
        decided = true
        do {
            let pipeline = context.pipeline.syncOperations
            try pipeline.addHandler(HTTP1ToHTTPServerCodec(secure: false))
            try pipeline.addHandler(HTTPConnectionStateHandler(idleTimeout: nil, logger: logger))
            let asyncChannel = try NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>(
                wrappingChannelSynchronously: context.channel, configuration: .init(isOutboundHalfClosureEnabled: true)
            )
            verdict.succeed(.http(asyncChannel))
        } catch {
            verdict.succeed(.servedOnEventLoop)
            context.close(promise: nil)
            return
        }
        context.fireChannelRead(data)
        context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if !decided {
            if event is EventStreamResponder.StreamBegan {
                giveVerdict(.servedOnEventLoop)
                context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
                return
            }
            if event is ChannelShouldQuiesceEvent || (event as? ChannelEvent) == .inputClosed {
                giveVerdict(.servedOnEventLoop)
                context.close(promise: nil)
                return
            }
        }
        context.fireUserInboundEventTriggered(event)
    }

    func channelInactive(context: ChannelHandlerContext) {
        giveVerdict(.servedOnEventLoop)
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        giveVerdict(.servedOnEventLoop)
    }

    private func giveVerdict(_ kind: GuardedConnection.Kind) {
        guard !decided else { return }
        decided = true
        verdict.succeed(kind)
    }
}
