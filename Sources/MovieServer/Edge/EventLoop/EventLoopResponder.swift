import Logging
import NIOCore
import NIOHTTP1

/// Answers the requests that ``CachedAnswers`` can answer right on the connection's event loop,
/// before Hummingbird's HTTP codec, and passes every other request on unchanged.
///
/// Answers keep the order of the requests: while a request passed on is still unanswered, the
/// requests after it on the connection are passed on too. Each answer is counted and timed in
/// the metrics and logged as the router's middleware would. A request to quiesce (the server is
/// shutting down) that comes while an answer is being prepared waits until it is sent.
final class EventLoopResponder: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    private let answers: CachedAnswers
    private let logger: Logger
    private var date = HTTPDate()
    private var passedOnUnanswered = 0
    private var pending: (answer: CachedAnswers.Answer, request: HTTPRequestHead, start: ContinuousClock.Instant)?
    private var heldQuiesce: Any?
    private var needsFlush = false
    /// The connection's guard, which writes this handler's answers on past the handlers after it.
    private var connectionGuard: ConnectionGuard?
    /// Where the answers of this connection's event loop are counted.
    private var tally: RequestTallies.Share?

    init(answers: CachedAnswers, logger: Logger) {
        self.answers = answers
        self.logger = logger
    }

    func handlerAdded(context: ChannelHandlerContext) {
        connectionGuard = try? context.pipeline.syncOperations.handler(type: ConnectionGuard.self)
        tally = answers.tallies.share(for: context.eventLoop)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        connectionGuard = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case let .head(request):
            if passedOnUnanswered == 0 {
                let start = ContinuousClock.now
                if let answer = answers.answer(to: request, now: start, date: date.now()) {
                    pending = (answer, request, start)
                    return
                }
            }
            passedOnUnanswered += 1
        case .body:
            if pending != nil { return }
        case .end:
            if let (answer, request, start) = pending {
                pending = nil
                send(answer, to: request, started: start, context: context)
                if let event = heldQuiesce {
                    heldQuiesce = nil
                    flushIfNeeded(context)
                    context.fireUserInboundEventTriggered(event)
                }
                return
            }
        }
        context.fireChannelRead(data)
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        flushIfNeeded(context)
        context.fireChannelReadComplete()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is ChannelShouldQuiesceEvent {
            if pending != nil {
                heldQuiesce = event
                return
            }
            flushIfNeeded(context)
        }
        context.fireUserInboundEventTriggered(event)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data), passedOnUnanswered > 0 {
            passedOnUnanswered -= 1
        }
        context.write(data, promise: promise)
    }

    private func flushIfNeeded(_ context: ChannelHandlerContext) {
        if needsFlush {
            needsFlush = false
            context.flush()
        }
    }

    private func send(_ answer: CachedAnswers.Answer, to request: HTTPRequestHead, started start: ContinuousClock.Instant, context: ChannelHandlerContext) {
        if connectionGuard?.writeWholeAnswer(answer.head, body: answer.body) != true {
            context.write(wrapOutboundOut(.head(answer.head)), promise: nil)
            if let body = answer.body {
                context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil)
            }
            context.write(wrapOutboundOut(.end(nil)), promise: nil)
        }
        needsFlush = true
        let tally = tally ?? answers.tallies.share(for: context.eventLoop)
        self.tally = tally
        tally.record(answer.series, duration: ContinuousClock.now - start)
        if logger.logLevel <= .info {
            logger.info("\(request.method) \(request.uri) \(answer.head.status.code)")
        }
    }
}
