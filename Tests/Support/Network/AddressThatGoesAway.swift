import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A loopback address for a server that a test will take away. Until ``goAway()`` every connection
/// is relayed to the server; from then on every connection is refused, for the rest of the test
/// process: the port is held before the relay stops listening, so no other test's server can take
/// it in between and answer in the stopped server's place.
public final class AddressThatGoesAway: Sendable {
    private let relay: CountingRelay

    public var port: Int { relay.port }
    /// The movie API root at this address, `http://127.0.0.1:port/api/`.
    public var baseURL: URL { URL(string: "http://127.0.0.1:\(port)/api/")! }

    private init(relay: CountingRelay) {
        self.relay = relay
    }

    /// An address in front of the server listening on `127.0.0.1:serverPort`.
    public static func start(to serverPort: Int) async throws -> AddressThatGoesAway {
        AddressThatGoesAway(relay: try await CountingRelay.start(to: serverPort, sharingItsPort: true))
    }

    /// An address in front of the server whose API root is `api` (as `marquee serve` prints it).
    public static func start(to api: String) async throws -> AddressThatGoesAway {
        guard let port = URL(string: api)?.port else { throw NotAnAPIRoot(text: api) }
        return try await start(to: port)
    }

    /// Stops answering at this address for good.
    public func goAway() async throws {
        _ = try PortHolder.bind(port, sharing: true)
        await relay.stop()
    }

    struct NotAnAPIRoot: Error, CustomStringConvertible {
        let text: String
        var description: String { "no port in '\(text)'" }
    }
}
