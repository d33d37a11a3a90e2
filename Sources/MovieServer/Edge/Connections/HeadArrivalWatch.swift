import NIOCore

/// Sits before the HTTP decoder and tells the connection's ``ConnectionGuard`` when bytes arrive,
/// which the decoded request parts cannot say: when the next request on a kept-alive connection
/// begins, and that a trickled head is still coming in. Its context is where the guard writes
/// past the HTTP codec (an empty write, to close once what is queued is out).
final class HeadArrivalWatch: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private let connectionGuard: ConnectionGuard
    private var guardContext: ChannelHandlerContext?

    init(_ connectionGuard: ConnectionGuard) {
        self.connectionGuard = connectionGuard
    }

    func handlerAdded(context: ChannelHandlerContext) {
        guardContext = try? context.pipeline.syncOperations.context(handler: connectionGuard)
        connectionGuard.watchAdded(context)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        guardContext = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if let guardContext { connectionGuard.bytesArrived(context: guardContext) }
        context.fireChannelRead(data)
    }
}
