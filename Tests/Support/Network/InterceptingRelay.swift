import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// A TCP relay on loopback in front of a server that answers some requests itself, as a proxy in
/// trouble would: a request whose head starts with ``prefix`` (`POST /api/auth/token`) gets
/// ``answer`` instead of the server's, while it is set; every other request is relayed. The
/// relay reads each request at the start of a read, which is where a client that waits for each
/// answer before sending the next puts it.
public final class InterceptingRelay: Sendable {
    /// What an intercepted request gets.
    public enum Answer: Sendable {
        /// This whole HTTP answer, then the connection closes.
        case respond(String)
        /// Nothing, ever: the client's time-out decides.
        case hang
        /// The connection closes without an answer.
        case close
    }

    public let port: Int
    public let prefix: String
    private let channel: any Channel
    private let state: NIOLockedValueBox<State>

    struct State {
        var answer: Answer?
        var intercepted = 0
    }

    /// The answer intercepted requests get; `nil` relays them.
    public var answer: Answer? {
        get { state.withLockedValue { $0.answer } }
        set { state.withLockedValue { $0.answer = newValue } }
    }

    /// How many requests the relay answered itself.
    public var intercepted: Int { state.withLockedValue { $0.intercepted } }

    private init(port: Int, prefix: String, channel: any Channel, state: NIOLockedValueBox<State>) {
        self.port = port
        self.prefix = prefix
        self.channel = channel
        self.state = state
    }

    /// A status answer with a body, as `respond` takes it.
    public static func status(_ line: String, contentType: String = "application/json", headers: [String] = [], body: String) -> Answer {
        let fields = ["HTTP/1.1 \(line)", "Content-Type: \(contentType)", "Content-Length: \(body.utf8.count)", "Connection: close"] + headers
        return .respond(fields.joined(separator: "\r\n") + "\r\n\r\n" + body)
    }

    public static func start(to serverPort: Int, intercepting prefix: String) async throws -> InterceptingRelay {
        let state = NIOLockedValueBox(State())
        let channel = try await LoopbackRelay.listen(to: { serverPort }) { client in
            LoopbackRelay.Join(
                fromServer: RelayHandler(peer: client),
                fromClient: { server in
                    InterceptingHandler(server: server) { head in
                        guard head.hasPrefix(prefix) else { return nil }
                        return state.withLockedValue { state in
                            if state.answer != nil { state.intercepted += 1 }
                            return state.answer
                        }
                    }
                }
            )
        }
        return InterceptingRelay(port: channel.localAddress?.port ?? 0, prefix: prefix, channel: channel, state: state)
    }

    public func stop() async {
        try? await channel.close()
    }
}

/// Relays the client's bytes to the server, unless a read starts a request that `intercepts`
/// answers: then the answer is played to the client, and nothing more is relayed.
private final class InterceptingHandler: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = ByteBuffer

    private let server: any Channel
    private let intercepts: @Sendable (String) -> InterceptingRelay.Answer?
    private var answered = false

    init(server: any Channel, intercepts: @escaping @Sendable (String) -> InterceptingRelay.Answer?) {
        self.server = server
        self.intercepts = intercepts
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let buffer = unwrapInboundIn(data)
        guard !answered else { return }
        guard let answer = intercepts(String(buffer: buffer)) else {
            server.writeAndFlush(buffer, promise: nil)
            return
        }
        answered = true
        // The server's connection closes with the client's (`channelInactive`): closed first, it
        // would close the client's before the answer is written.
        let client = context.channel
        switch answer {
        case let .respond(text):
            client.writeAndFlush(ByteBuffer(string: text)).whenComplete { _ in client.close(promise: nil) }
        case .hang:
            break
        case .close:
            client.close(promise: nil)
        }
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { context.read() }
    }

    func channelActive(context: ChannelHandlerContext) {
        context.read()
        context.fireChannelActive()
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        context.read()
    }

    func channelInactive(context: ChannelHandlerContext) {
        server.close(promise: nil)
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}
