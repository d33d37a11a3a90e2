import HummingbirdCore
import Logging
import NIOCore
import NIOHTTPTypesHTTP1

/// Hummingbird's HTTP/1 channel with our handlers placed before its HTTP codec, where the
/// request head still carries the HTTP version and no HTTP types conversion has been paid for:
/// a ``ConnectionGuard``, which sees every request and answer and so also keeps the idle timeout
/// (Hummingbird's own is off), then, when given, a ``EventLoopResponder``; and, before the decoder,
/// the guard's ``HeadArrivalWatch``.
struct GuardedHTTP1Channel: ServerChildChannel, HTTPChannelHandler {
    let inner: HTTP1Channel
    let limits: ConnectionLimits
    let connections: IdleConnections
    let cachedAnswers: CachedAnswers?

    var responder: Responder { inner.responder }

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<HTTP1Channel.Value> {
        inner.setup(channel: channel, logger: logger).flatMapThrowing { value in
            let pipeline = channel.pipeline.syncOperations
            let codec = try pipeline.handler(type: HTTP1ToHTTPServerCodec.self)
            let connectionGuard = ConnectionGuard(limits: limits, connections: connections)
            try pipeline.addHandler(connectionGuard, position: .before(codec))
            try pipeline.addHandler(HeadArrivalWatch(connectionGuard), position: .first)
            if let cachedAnswers {
                try pipeline.addHandler(EventLoopResponder(answers: cachedAnswers, logger: logger), position: .before(codec))
            }
            return value
        }
    }

    func handle(value: HTTP1Channel.Value, logger: Logger) async {
        await inner.handle(value: value, logger: logger)
    }
}

extension HTTPServerBuilder {
    /// HTTP/1 with the server's ``ConnectionLimits``: a head timeout, an idle timeout, and
    /// `CONNECT` and HTTP/1.0 connections ended as HTTP says; with `cachedAnswers`, the answers it can
    /// give are given on the event loop.
    static func guardedHTTP1(_ limits: ConnectionLimits, connections: IdleConnections, cachedAnswers: CachedAnswers? = nil) -> HTTPServerBuilder {
        HTTPServerBuilder { responder in
            GuardedHTTP1Channel(inner: HTTP1Channel(responder: responder), limits: limits, connections: connections, cachedAnswers: cachedAnswers)
        }
    }
}
