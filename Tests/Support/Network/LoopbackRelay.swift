import NIOCore
import NIOPosix
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What the tests' relays share: a listener on an ephemeral loopback port that, for each
/// connection it accepts, dials the server and joins the two with the handlers `join` gives.
enum LoopbackRelay {
    /// The handlers of one relayed connection: `fromServer` reads the server's bytes (made with the
    /// client's channel, to write to), `fromClient` reads the client's, once the server's channel exists.
    struct Join: Sendable {
        var fromServer: any ChannelHandler & Sendable
        var fromClient: @Sendable (_ server: any Channel) -> any ChannelHandler & Sendable
    }

    /// Listens; each connection goes to `127.0.0.1:serverPort()` (asked per connection). With
    /// `sharingItsPort`, another socket of this process may bind the port meanwhile (SO_REUSEPORT).
    static func listen(
        to serverPort: @escaping @Sendable () -> Int, sharingItsPort: Bool = false, join: @escaping @Sendable (_ client: any Channel) -> Join
    ) async throws -> any Channel {
        try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .serverChannelOption(ChannelOptions.Types.SocketOption(level: .init(rawValue: SOL_SOCKET), name: .init(rawValue: SO_REUSEPORT)), value: sharingItsPort ? 1 : 0)
            .childChannelOption(.autoRead, value: false)
            .childChannelInitializer { client in
                let join = join(client)
                return ClientBootstrap(group: client.eventLoop)
                    .channelInitializer { server in
                        server.eventLoop.makeCompletedFuture { try server.pipeline.syncOperations.addHandler(join.fromServer) }
                    }
                    .connect(host: "127.0.0.1", port: serverPort())
                    .flatMap { server in client.pipeline.addHandler(join.fromClient(server)) }
            }
            .bind(host: "127.0.0.1", port: 0)
            .get()
    }
}
