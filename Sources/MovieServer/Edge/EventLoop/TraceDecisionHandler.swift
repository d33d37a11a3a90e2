import NIOCore
import NIOHTTP1

/// Applies the ``TraceDecider`` to each request head before anything else reads it: a malformed
/// `traceparent` is removed, a well-formed one rewritten to carry the decision, so the event loop
/// keeps its answers for every request not traced and the router's span follows the same choice.
final class TraceDecisionHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart

    private let decider: TraceDecider
    private let proxies: TrustedProxies

    init(decider: TraceDecider, proxies: TrustedProxies) {
        self.decider = decider
        self.proxies = proxies
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case var .head(request) = unwrapInboundIn(data), request.headers.contains(name: "traceparent") else {
            context.fireChannelRead(data)
            return
        }
        switch decider.decide(request.headers["traceparent"], party: { party(of: request, context: context) }) {
        case .none:
            break
        case .dropped:
            request.headers.remove(name: "traceparent")
            request.headers.remove(name: "tracestate")
        case let .decided(value, _):
            if request.headers.first(name: "traceparent") != value {
                request.headers.replaceOrAdd(name: "traceparent", value: value)
            }
        }
        context.fireChannelRead(wrapInboundOut(.head(request)))
    }

    private func party(of request: HTTPRequestHead, context: ChannelHandlerContext) -> String {
        let peer = context.channel.remoteAddress?.ipAddress.flatMap { IPAddress($0) }
        let lines = proxies.isEmpty ? [] : request.headers[proxies.header.rawValue]
        return proxies.client(peer: peer, headerLines: lines)?.party ?? "unknown"
    }
}

/// Whether a request head's `traceparent`, as ``TraceDecisionHandler`` left it, says it is traced.
extension HTTPRequestHead {
    var isTraced: Bool {
        guard let value = headers.first(name: "traceparent") else { return false }
        return value.utf8.last == UInt8(ascii: "1")
    }
}
