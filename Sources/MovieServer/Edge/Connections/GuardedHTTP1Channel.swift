import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypesHTTP1

/// Hummingbird's HTTP/1 channel with our handlers placed before its HTTP codec, where the
/// request head still carries the HTTP version and no HTTP types conversion has been paid for:
/// a ``ConnectionGuard``, which sees every request and answer and so also keeps the idle timeout
/// (Hummingbird's own is off), then, when given, an ``EventLoopResponder``, whose answers the
/// guard writes on (they pass no other handler), then an ``EventStreamResponder``; and, before the
/// decoder, the guard's ``HeadArrivalWatch``.
/// Hummingbird's own handlers are added at the first request that is not an event stream
/// (``FirstRequestSwitch``).
struct GuardedHTTP1Channel: ServerChildChannel, HTTPChannelHandler {
    let inner: HTTP1Channel
    let limits: ConnectionLimits
    let connections: IdleConnections
    let streams: EventStreams
    let cachedAnswers: CachedAnswers?
    /// Whether requests are traced, and whose address a trace counts against.
    let tracing: (decider: TraceDecider, proxies: TrustedProxies)?

    var responder: Responder { inner.responder }

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<GuardedConnection> {
        channel.eventLoop.makeCompletedFuture {
            let decoder = inner.configuration.httpDecoder
            var decoderLimits = NIOHTTPDecoderLimitConfiguration()
            decoderLimits.maxHeaderFieldSize = decoder.maxHeaderFieldSize
            decoderLimits.maxHeaderListSize = decoder.maxHeaderListSize
            decoderLimits.maxHeaderFieldCount = decoder.maxHeaderFieldCount
            let pipeline = channel.pipeline.syncOperations
            try pipeline.configureHTTPServerPipeline(
                withPipeliningAssistance: false, withErrorHandling: false, withOutboundHeaderValidation: false,
                withEncoderConfiguration: .init(), withDecoderLimitConfiguration: decoderLimits
            )
            let connectionGuard = ConnectionGuard(limits: limits, connections: connections)
            try pipeline.addHandler(connectionGuard)
            try pipeline.addHandler(HeadArrivalWatch(connectionGuard), position: .first)
            if let tracing {
                try pipeline.addHandler(TraceDecisionHandler(decider: tracing.decider, proxies: tracing.proxies))
            }
            if let cachedAnswers {
                try pipeline.addHandler(EventLoopResponder(answers: cachedAnswers, logger: logger))
            }
            try pipeline.addHandler(EventStreamResponder(streams: streams, logger: logger))
            let verdict = channel.eventLoop.makePromise(of: GuardedConnection.Kind.self)
            do {
                try pipeline.addHandler(FirstRequestSwitch(verdict: verdict, logger: logger))
            } catch {
                verdict.succeed(.servedOnEventLoop)
                throw error
            }
            return GuardedConnection(channel: channel, kind: verdict.futureResult)
        }
    }

    func handle(value: GuardedConnection, logger: Logger) async {
        // A server stopped before the first request closes the connection, which has no task of its own to end.
        let kind = await withTaskCancellationHandler {
            try? await value.kind.get()
        } onCancel: {
            value.channel.close(promise: nil)
        }
        guard case let .http(asyncChannel) = kind else { return }
        await inner.handle(value: asyncChannel, logger: logger)
    }
}

/// A connection as the server's task sees it: what it turns out to be at its first request.
struct GuardedConnection: ServerChildChannelValue {
    enum Kind: Sendable {
        /// Hummingbird serves it.
        case http(HTTP1Channel.Value)
        /// Its handlers serve it on the event loop (an event stream), or it closed before a request.
        case servedOnEventLoop
    }

    let channel: any Channel
    let kind: EventLoopFuture<Kind>
}

extension HTTPServerBuilder {
    /// HTTP/1 with the server's ``ConnectionLimits``: a head timeout, an idle timeout, and
    /// `CONNECT` and HTTP/1.0 connections ended as HTTP says; event streams served on the event
    /// loop; with `cachedAnswers`, the answers it can give are given on the event loop; with
    /// `tracing`, each `traceparent` is decided first (``TraceDecisionHandler``).
    static func guardedHTTP1(
        _ limits: ConnectionLimits, connections: IdleConnections, streams: EventStreams, cachedAnswers: CachedAnswers? = nil,
        tracing: (decider: TraceDecider, proxies: TrustedProxies)? = nil
    ) -> HTTPServerBuilder {
        HTTPServerBuilder { responder in
            GuardedHTTP1Channel(
                inner: HTTP1Channel(responder: responder), limits: limits, connections: connections,
                streams: streams, cachedAnswers: cachedAnswers, tracing: tracing
            )
        }
    }
}
