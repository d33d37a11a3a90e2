import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Hummingbird
import Logging
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

/// A loopback port on which nothing listens, and on which nothing else can listen while the
/// tests run: a socket is bound to it and never listens, so every connection is refused.
public func closedLoopbackPort() async throws -> Int {
    try PortHolder.bind(0)
}

/// Sockets bound on loopback and kept for the life of the test process.
enum PortHolder {
    struct BindFailure: Error, CustomStringConvertible {
        let port: Int
        let code: Int32
        var description: String { "cannot hold loopback port \(port): errno \(code)" }
    }

    /// Binds `port` (0: any free one) without listening. `sharing` joins a listener of this
    /// process that shares its port (SO_REUSEPORT), so the port is held before that listener closes.
    /// No SO_REUSEADDR: Linux lets a socket that has it listen on a port held by another that has
    /// it too, as long as that one does not listen.
    static func bind(_ port: Int, sharing: Bool = false) throws -> Int {
        let descriptor = socket(AF_INET, PortableSockets.stream, 0)
        if sharing {
            var on: Int32 = 1
            _ = setsockopt(descriptor, SOL_SOCKET, SO_REUSEPORT, &on, socklen_t(MemoryLayout<Int32>.size))
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { PortableSockets.bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard descriptor >= 0, bound == 0 else {
            let code = errno
            close(descriptor)
            throw BindFailure(port: port, code: code)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

/// Runs `operation`, then `cleanup` whether it threw or not, then returns or rethrows.
public func finally<Result>(
    _ operation: @autoclosure () async throws -> Result,
    cleanup: () async -> Void
) async throws -> Result {
    let outcome: Swift.Result<Result, any Error>
    do { outcome = .success(try await operation()) } catch { outcome = .failure(error) }
    await cleanup()
    return try outcome.get()
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
