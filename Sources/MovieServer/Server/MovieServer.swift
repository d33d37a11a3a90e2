import Foundation
import Hummingbird
import Logging

/// The movie API: the paths and bodies of the original static site, served by Hummingbird,
/// plus OAuth 2.0 tokens that the movie paths require unless the server is public.
///
/// Run it standalone with ``run()`` (until SIGINT or SIGTERM), or inside another process with
/// ``start()``, which binds (port 0 picks a free one) and hands back a ``RunningServer``.
public struct MovieServer: Sendable {
    /// Where the server listens and what it serves.
    public struct Configuration: Sendable {
        public var host: String
        /// The port to bind; 0 lets the system choose a free one.
        public var port: Int
        public var catalog: Catalog
        public var auth: AuthConfiguration
        public var limits: ConnectionLimits
        /// How long a client may use a movie answer without asking again (`Cache-Control: max-age`).
        public var maxAge: Duration
        public var logger: Logger

        public init(
            host: String = "127.0.0.1",
            port: Int = 8080,
            catalog: Catalog,
            auth: AuthConfiguration = AuthConfiguration(),
            limits: ConnectionLimits = ConnectionLimits(),
            maxAge: Duration = .seconds(60),
            logger: Logger = Logger(label: "marquee.server")
        ) {
            self.host = host
            self.port = port
            self.catalog = catalog
            self.auth = auth
            self.limits = limits
            self.maxAge = maxAge
            self.logger = logger
        }
    }

    public let configuration: Configuration
    /// Issues and checks the tokens; its ledger counts the grants.
    public let tokens: TokenService

    public init(configuration: Configuration) async {
        self.configuration = configuration
        self.tokens = await TokenService(configuration: configuration.auth)
    }

    /// Serves until the process receives SIGINT or SIGTERM.
    public func run() async throws {
        let logger = configuration.logger
        let auth = configuration.auth
        let access = auth.requiresToken
            ? "movie paths require a bearer token from POST /api/auth/token (client id \(auth.client.id), tokens valid \(auth.accessTokenLifetime))"
            : "movie paths are public"
        let app = try makeApplication { port in
            logger.notice("\(access)")
            logger.notice("Marquee movie API listening on \(Self.baseURL(host: configuration.host, port: port))")
        }
        try await app.runService()
    }

    /// Starts serving in this process and returns once the socket is bound.
    public func start() async throws -> RunningServer {
        try await RunningServer.start(host: configuration.host, logger: configuration.logger) { onListening in
            try makeApplication(onListening: onListening)
        }
    }

    private func makeApplication(onListening: @escaping @Sendable (Int) -> Void) throws -> some ApplicationProtocol {
        let listing = Router(context: BasicRequestContext.self)
        try registerRoutes(on: listing)
        let router = Router(context: BasicRequestContext.self, options: .autoGenerateHeadEndpoints)
        router.middlewares.add(RequestLogMiddleware())
        router.middlewares.add(JSONErrorMiddleware(routes: RouteTable(listing)))
        try registerRoutes(on: router)
        return Application(
            router: router,
            server: .guardedHTTP1(configuration.limits),
            configuration: .init(
                address: .hostname(configuration.host, port: configuration.port),
                serverName: "Marquee",
                availableConnectionsDelegate: .maximum(configuration.limits.maximumConnections, logger: configuration.logger)
            ),
            onServerRunning: { channel in onListening(channel.localAddress?.port ?? 0) },
            logger: configuration.logger
        )
    }

    /// Every route of the API. Registered twice: once on a bare router, to list them for the
    /// answers to a wrong method, then on the served one, behind middleware that needs that list.
    private func registerRoutes(on router: Router<BasicRequestContext>) throws {
        let api = router.group("api")
        let movies = api.group("movies")
        if configuration.auth.requiresToken {
            movies.add(middleware: BearerTokenMiddleware(tokens: tokens))
        }
        let caching = CachingDirectives(maxAge: Int(configuration.maxAge / .seconds(1)), isPrivate: configuration.auth.requiresToken)
        MovieRoutes(catalog: configuration.catalog, caching: caching).register(on: movies)
        LegacyAuthRoute().register(on: api)
        TokenRoutes(tokens: tokens).register(on: api)
        try OpenAPIRoute().register(on: api)
    }
}

extension MovieServer {
    /// `http://host:port/api/`, with an IPv6 address in brackets.
    public static func baseURL(host: String, port: Int) -> String {
        let shownHost = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        return "http://\(shownHost):\(port)/api/"
    }
}

/// Why a ``MovieServer`` could not serve.
public enum MovieServerError: Error, Sendable, CustomStringConvertible {
    case stoppedBeforeListening(host: String)

    public var description: String {
        switch self {
        case let .stoppedBeforeListening(host):
            "the server stopped before it could listen on \(host)"
        }
    }
}
