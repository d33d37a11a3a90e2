import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// A TCP relay on loopback that loses answers: for the first `cuts` marked requests (say, those
/// that start with `POST /api/watchlist/changes` and carry a token), it passes the request to the server
/// whole, waits for the server's answer and closes both sides instead of passing it on. The
/// server has done the work; the client sees the connection drop.
public final class CuttingRelay: Sendable {
    public let port: Int
    private let channel: any Channel
    private let state: NIOLockedValueBox<State>

    struct State {
        var cutsLeft: Int
        var cut = 0
        var marked = 0
    }

    /// How many answers were cut so far.
    public var answersCut: Int { state.withLockedValue { $0.cut } }
    /// How many requests started with the marker.
    public var markedRequests: Int { state.withLockedValue { $0.marked } }

    private init(port: Int, channel: any Channel, state: NIOLockedValueBox<State>) {
        self.port = port
        self.channel = channel
        self.state = state
    }

    /// Relays to `127.0.0.1:serverPort`; a request is marked when it starts with `marker` and
    /// holds `requiring` (in any case) in its first read.
    public static func start(to serverPort: Int, marker: String, requiring: String = "authorization: bearer", cuts: Int) async throws -> CuttingRelay {
        let state = NIOLockedValueBox(State(cutsLeft: cuts))
        let channel = try await LoopbackRelay.listen(to: { serverPort }) { client in
            let cutsAnswer = NIOLockedValueBox(false)
            return LoopbackRelay.Join(
                fromServer: RelayHandler(peer: client, drops: { _ in cutsAnswer.withLockedValue { $0 } }),
                fromClient: { server in
                    RelayHandler(peer: server, drops: { bytes in
                        let text = String(buffer: bytes)
                        guard text.hasPrefix(marker), text.lowercased().contains(requiring) else { return false }
                        let cut = state.withLockedValue { state in
                            state.marked += 1
                            guard state.cutsLeft > 0 else { return false }
                            state.cutsLeft -= 1
                            state.cut += 1
                            return true
                        }
                        if cut { cutsAnswer.withLockedValue { $0 = true } }
                        return false
                    })
                }
            )
        }
        return CuttingRelay(port: channel.localAddress?.port ?? 0, channel: channel, state: state)
    }

    /// From now on, cut the answers of the next `count` marked requests (0: none).
    public func cut(next count: Int) {
        state.withLockedValue { $0.cutsLeft = count }
    }

    public func stop() async {
        try? await channel.close()
    }
}
