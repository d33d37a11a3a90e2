import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Hummingbird
import Logging
import MarqueeTestSupport
import MovieServer

/// A movie server running on an ephemeral loopback port for a test.
public struct TestMovieServer: Sendable {
    public let server: MovieServer
    public let running: RunningServer

    public var port: Int { running.port }
    public var baseURL: URL { running.baseURL }
    /// The tokens granted so far, by grant type.
    public var grants: GrantLedger.Counts { server.tokens.ledger.current }
    /// The movie requests answered 401 so far.
    public var challenges: Int { server.tokens.ledger.challenges }

    public init(server: MovieServer, running: RunningServer) {
        self.server = server
        self.running = running
    }
}

/// Runs `body` with a movie server on an ephemeral loopback port, and stops it afterwards.
/// The movie paths are public unless `auth` says otherwise.
@discardableResult
public func withMovieServer<Result>(
    catalog: Catalog? = nil,
    auth: AuthConfiguration = .publicAccess,
    limits: ConnectionLimits = ConnectionLimits(),
    maxAge: Duration = .seconds(60),
    storage: (any ServerStorage)? = nil,
    answersOnEventLoop: Bool = true,
    readinessTimeout: Duration = .seconds(1),
    queryTimeout: Duration = generousQueryTimeout,
    feed: FeedSettings = FeedSettings(),
    trustedProxies: TrustedProxies = .none,
    logger: Logger = quietLogger,
    _ body: (TestMovieServer) async throws -> Result
) async throws -> Result {
    var configuration = MovieServer.Configuration(
        host: "127.0.0.1", port: 0, storage: try storage ?? MemoryStorage(catalog: catalog ?? Catalog.reference()),
        auth: auth, limits: limits, maxAge: maxAge, logger: logger
    )
    configuration.feed = feed
    configuration.answersOnEventLoop = answersOnEventLoop
    configuration.readinessTimeout = readinessTimeout
    configuration.queryTimeout = queryTimeout
    configuration.trustedProxies = trustedProxies
    let server = await MovieServer(configuration: configuration)
    let running = try await server.start()
    return try await finally(try await body(TestMovieServer(server: server, running: running))) { try? await running.stop() }
}

/// Runs `body` with a Hummingbird server whose routes `configure` adds, on an ephemeral loopback port.
@discardableResult
public func withLoopbackServer<Result>(
    _ configure: (Router<BasicRequestContext>) -> Void,
    _ body: (RunningServer) async throws -> Result
) async throws -> Result {
    let server = try await RunningServer.start(host: "127.0.0.1", logger: quietLogger) { onListening in
        let router = Router(context: BasicRequestContext.self)
        configure(router)
        return Application(
            router: router,
            configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { onListening($0.localAddress?.port ?? 0) },
            logger: quietLogger
        )
    }
    return try await finally(try await body(server)) { try? await server.stop() }
}

public let quietLogger: Logger = {
    var logger = Logger(label: "marquee.tests")
    logger.logLevel = .critical
    return logger
}()

/// How long a test's database query may take before it is a `503`: far above what any query of a
/// test catalogue needs, so that only a test about timeouts (which sets its own) meets one on a
/// loaded two-core machine running the suite in parallel.
public let generousQueryTimeout: Duration = .seconds(30)
