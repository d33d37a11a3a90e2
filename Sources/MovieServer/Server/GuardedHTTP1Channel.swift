import HummingbirdCore
import Logging
import NIOCore
import NIOHTTPTypesHTTP1

/// Hummingbird's HTTP/1 channel with a ``ConnectionGuard`` placed before its HTTP codec, where
/// the request head still carries the HTTP version.
struct GuardedHTTP1Channel: ServerChildChannel, HTTPChannelHandler {
    let inner: HTTP1Channel
    let limits: ConnectionLimits

    var responder: Responder { inner.responder }

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<HTTP1Channel.Value> {
        inner.setup(channel: channel, logger: logger).flatMapThrowing { value in
            let codec = try channel.pipeline.syncOperations.handler(type: HTTP1ToHTTPServerCodec.self)
            try channel.pipeline.syncOperations.addHandler(ConnectionGuard(headerTimeout: limits.headerTimeout), position: .before(codec))
            return value
        }
    }

    func handle(value: HTTP1Channel.Value, logger: Logger) async {
        await inner.handle(value: value, logger: logger)
    }
}

extension HTTPServerBuilder {
    /// HTTP/1 with the server's ``ConnectionLimits``: a head timeout, an idle timeout, and
    /// `CONNECT` and HTTP/1.0 connections ended as HTTP says.
    static func guardedHTTP1(_ limits: ConnectionLimits) -> HTTPServerBuilder {
        HTTPServerBuilder { responder in
            let (seconds, attoseconds) = limits.idleTimeout.components
            let idle = TimeAmount.nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
            return GuardedHTTP1Channel(inner: HTTP1Channel(responder: responder, configuration: .init(idleTimeout: idle)), limits: limits)
        }
    }
}
