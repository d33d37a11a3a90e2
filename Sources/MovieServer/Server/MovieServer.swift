import Foundation
import Hummingbird
import NIOCore
import Logging
import MovieContract
import ServiceLifecycle

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
        /// Where the catalog and the refresh tokens are kept.
        public var storage: any ServerStorage
        public var auth: AuthConfiguration
        public var limits: ConnectionLimits
        /// How long a client may use a movie answer without asking again (`Cache-Control: max-age`).
        public var maxAge: Duration
        /// After SIGTERM, how long the server goes on accepting requests while it reports itself
        /// not ready, so that a load balancer stops sending it traffic first.
        public var drainDelay: Duration
        /// After SIGTERM, how long requests in flight may take to finish before they are cut off.
        public var shutdownTimeout: Duration
        /// How long `GET /health/ready` waits for the database before it reports it unavailable.
        /// A server busy enough to miss it is taken out of rotation by its balancer: raise it for
        /// a database that is slow to answer under load.
        public var readinessTimeout: Duration
        /// How long one request may wait for the database in all, whatever it queries
        /// (``RequestDeadline``); a request past it is a `503`.
        public var queryTimeout: Duration
        public var logger: Logger
        /// Whether the answers the response cache keeps are sent right from the connection's
        /// event loop, without the router; off, every request is routed (the router still answers
        /// from the cache), which is slower and answers the same bytes.
        public var answersOnEventLoop = true
        /// The most bytes the response cache may keep (``ServerSetting/responseCacheMegabytes``).
        public var responseCacheBytes = ServerSetting.responseCacheMegabytes.defaultValue * 1_048_576
        /// The event feed's limits and rhythms (`GET /api/events`).
        public var feed = FeedSettings()
        /// The proxies the server stands behind, whose forwarding header names each request's
        /// client (`serve --trusted-proxy`); none by default: every client is its peer.
        public var trustedProxies = TrustedProxies.none
        /// Whether each routed request is a span of the process's tracer (swift-distributed-tracing's
        /// `InstrumentationSystem`, which the caller bootstraps), following the request's
        /// `traceparent`, with the database work of its storage as child spans. Off by default:
        /// nothing is recorded and the hot paths pay nothing. On, a request whose `traceparent`
        /// the ``traceSampling`` decides traced is routed even when the event loop keeps its
        /// answer, so that its trace goes on; any other is answered from the event loop as before,
        /// and not traced.
        public var tracesRequests = false
        /// Which requests with a `traceparent` are traced (``TraceSampling``): by default the
        /// caller's flag is not trusted.
        public var traceSampling = TraceSampling()
        /// Services run beside the server and stopped after it, so that they see its last
        /// requests: the exporter of its traces (``tracesRequests``).
        public var companions: [any Service] = []

        /// Every default is the ``ServerSetting``'s; a catalog in memory is
        /// `storage: MemoryStorage(catalog: …)`.
        public init(
            host: String = "127.0.0.1",
            port: Int = ServerSetting.port.defaultValue,
            storage: any ServerStorage,
            auth: AuthConfiguration = AuthConfiguration(),
            limits: ConnectionLimits = ConnectionLimits(),
            maxAge: Duration = ServerSetting.maximumAge.defaultDuration,
            drainDelay: Duration = ServerSetting.drainDelay.defaultDuration,
            shutdownTimeout: Duration = ServerSetting.shutdownTimeout.defaultDuration,
            readinessTimeout: Duration = ServerSetting.readinessTimeout.defaultDuration,
            queryTimeout: Duration = ServerSetting.queryTimeout.defaultDuration,
            logger: Logger = Logger(label: "marquee.server")
        ) {
            self.host = host
            self.port = port
            self.storage = storage
            self.auth = auth
            self.limits = limits
            self.maxAge = maxAge
            self.drainDelay = drainDelay
            self.shutdownTimeout = shutdownTimeout
            self.readinessTimeout = readinessTimeout
            self.queryTimeout = queryTimeout
            self.logger = logger
        }
    }

    public let configuration: Configuration
    /// Issues and checks the tokens; its ledger counts the grants.
    public let tokens: TokenService
    /// The people who may sign in: what the sign-in page and the operator's commands change.
    public let accounts: Accounts
    /// What `GET /metrics` reports.
    public let metrics: ServerMetrics
    /// What `GET /health/ready` reports, besides the database.
    public let readiness = Readiness()
    private let storage: any ServerStorage
    /// Every cacheable catalogue answer given, until the catalogue changes.
    let responseCache: ResponseCache
    /// Hands the log's events to the open event streams.
    let feed: EventFeed

    /// How many event streams (`GET /api/events`) are open on this instance.
    public var openEventStreams: Int { feed.streamCount }

    /// How many connections that began as event streams are still open (a stream ended by a
    /// shutdown stays open until its last bytes are written).
    var openStreamConnections: Int { feed.connections.count }

    public init(configuration: Configuration) async {
        self.configuration = configuration
        let metrics = ServerMetrics(reporting: configuration.storage.failures)
        self.metrics = metrics
        storage = configuration.storage
        tokens = await TokenService(configuration: configuration.auth, storage: storage, metrics: metrics)
        accounts = Accounts(storage: storage, hasher: PasswordHasher(cost: configuration.auth.passwordHashCost), now: configuration.auth.now)
        var feedSettings = configuration.feed
        feedSettings.maximumStreams = min(feedSettings.maximumStreams, configuration.limits.maximumConnections * 3 / 4)
        let fixedCatalog = configuration.storage.fixedCatalog
        responseCache = ResponseCache(
            storage: storage, capacity: configuration.responseCacheBytes,
            recheckInterval: fixedCatalog == nil ? .seconds(1) : nil, metrics: metrics
        )
        feed = EventFeed(
            storage: storage, settings: feedSettings,
            catalogueChanged: { [responseCache] in responseCache.expire() }, logger: configuration.logger
        )
        if let fixedCatalog {
            let years = Set(fixedCatalog.movies.map(\.year)).sorted()
            let keys = years.flatMap { [CacheKey(route: .topGrossing, parameter: String($0)), CacheKey(route: .topRated, parameter: String($0))] }
            let catalogAnswers = CatalogAnswers(storage: storage)
            try? await responseCache.prepare(keys) { key throws(StorageError) in try await catalogAnswers.topList(key) }
        }
    }

    /// Serves until the process receives SIGINT or SIGTERM, then drains: reports itself not
    /// ready for ``Configuration/drainDelay``, stops accepting, lets the requests in flight finish
    /// (for at most ``Configuration/shutdownTimeout``), and returns.
    public func run() async throws {
        let logger = configuration.logger
        let auth = configuration.auth
        let access = auth.requiresToken
            ? "movie paths require a bearer token from POST /api/auth/token (\(auth.clientSummary), tokens valid \(auth.accessTokenLifetime), signed with key '\(auth.signingKeys.newest.id)' of \(auth.signingKeys.keys.count))"
            : "movie paths are public"
        let app = try makeApplication { port in
            logger.notice("\(access)")
            logger.notice("serving from \(configuration.storage.summary)")
            logger.notice("Marquee movie API listening on \(Self.baseURL(host: configuration.host, port: port))")
        }
        let drain = DrainAnnouncer(readiness: readiness, delay: configuration.drainDelay, logger: logger)
        // A group stops its services last to first: the companions after the server.
        var groupConfiguration = ServiceGroupConfiguration(
            services: configuration.companions.map { .init(service: $0) } + [.init(service: app), .init(service: drain)],
            gracefulShutdownSignals: [.sigterm, .sigint],
            logger: logger
        )
        groupConfiguration.maximumGracefulShutdownDuration = configuration.shutdownTimeout
        do {
            try await ServiceGroup(configuration: groupConfiguration).run()
        } catch let error as IOError {
            throw MovieServerError.cannotListen(host: configuration.host, port: configuration.port, errorCode: error.errnoCode)
        }
        await waitForStreamConnections()
        logger.notice("stopped")
    }

    /// Starts serving in this process and returns once the socket is bound.
    public func start() async throws -> RunningServer {
        try await RunningServer.start(host: configuration.host, logger: configuration.logger, afterStopping: { [self] in
            await waitForStreamConnections()
        }) { onListening in
            try makeApplication(onListening: onListening)
        }
    }

    /// Waits, within the shutdown timeout, for the event streams the shutdown ended to write
    /// their last event and close: Hummingbird waits only for the connections it runs a task for.
    private func waitForStreamConnections() async {
        let open = feed.connections.count
        guard open > 0 else { return }
        if await !feed.connections.waitUntilAllClosed(atMost: configuration.shutdownTimeout) {
            configuration.logger.warning("\(feed.connections.count) of \(open) event streams were still open at the shutdown timeout")
        }
    }

    /// The router as served, with its middleware and every route: what a request that reaches the
    /// router meets (the connection's guard, the event loop's kept answers and the event streams
    /// come before it). Tests drive it in process (HummingbirdTesting's `.router`).
    func makeRouter() throws -> Router<RoutedRequestContext> {
        let templates = try PageTemplates()
        let listing = try routeListing(templates: templates)
        let router = Router(context: RoutedRequestContext.self, options: .autoGenerateHeadEndpoints)
        if configuration.tracesRequests {
            storage.recordDatabaseSpans()
            router.middlewares.add(RequestSpanMiddleware())
        }
        router.middlewares.add(RoutedRequestMiddleware(
            errors: JSONErrorAnswers(routes: RouteTable(listing)), metrics: metrics, timeout: configuration.queryTimeout
        ))
        try registerRoutes(on: router, templates: templates)
        return router
    }

    private func makeApplication(onListening: @escaping @Sendable (Int) -> Void) throws -> some ApplicationProtocol {
        let router = try makeRouter()
        let cachedAnswers = configuration.answersOnEventLoop ? CachedAnswers(
            cache: responseCache, check: configuration.auth.requiresToken ? AccessTokenCheck(tokens: tokens) : nil,
            caching: caching, serverName: Self.serverName, metrics: metrics, leavesTraced: configuration.tracesRequests
        ) : nil
        let connections = IdleConnections(maximum: configuration.limits.maximumConnections)
        return Application(
            router: router,
            server: .guardedHTTP1(
                configuration.limits, connections: connections,
                streams: EventStreams(feed: feed, check: AccessTokenCheck(tokens: tokens), metrics: metrics, proxies: configuration.trustedProxies),
                cachedAnswers: cachedAnswers,
                tracing: configuration.tracesRequests ? (TraceDecider(sampling: configuration.traceSampling), configuration.trustedProxies) : nil
            ),
            configuration: .init(
                address: .hostname(configuration.host, port: configuration.port),
                serverName: Self.serverName,
                availableConnectionsDelegate: CappedConnections(connections: connections)
            ),
            onServerRunning: { channel in onListening(channel.localAddress?.port ?? 0) },
            logger: configuration.logger
        )
    }

    /// How the movie answers may be cached, as configured.
    private var caching: CachingDirectives {
        CachingDirectives(maxAge: Int(configuration.maxAge / .seconds(1)), isPrivate: configuration.auth.requiresToken)
    }

    private static let serverName = "Marquee"

    /// Every route, registered on a router that serves nothing: the list the answers to a wrong
    /// method are made from (``RouteTable``), and that tests walk.
    func routeListing(templates: PageTemplates) throws -> Router<RoutedRequestContext> {
        let listing = Router(context: RoutedRequestContext.self)
        try registerRoutes(on: listing, templates: templates)
        return listing
    }

    /// Every route of the API. Registered twice: once on a bare router, to list them for the
    /// answers to a wrong method, then on the served one, behind middleware that needs that list.
    private func registerRoutes(on router: Router<RoutedRequestContext>, templates: PageTemplates) throws {
        let api = router.group("api")
        let movies = api.group("movies")
        if configuration.auth.requiresToken {
            movies.add(middleware: AccessTokenAuthenticator(check: AccessTokenCheck(tokens: tokens), missing: .missingToken))
        }
        MovieRoutes(storage: storage, cache: responseCache, caching: caching, cursors: SearchCursor(keys: configuration.auth.signingKeys))
            .register(on: movies)
        LegacyAuthRoute().register(on: api)
        TokenRoutes(tokens: tokens).register(on: api)
        WatchlistRoutes(storage: storage, catalogue: storage, check: AccessTokenCheck(tokens: tokens), written: { [feed] in feed.poke() })
            .register(on: api)
        for kind in ShelfKinds.all {
            ShelfRouting.register(kind, storage: storage, catalogue: storage, check: AccessTokenCheck(tokens: tokens), written: { [feed] in feed.poke() }, on: api)
        }
        EventRoutes.list(on: api)
        AccountRoutes(storage: storage, check: AccessTokenCheck(tokens: tokens)).register(on: api)
        AuthorizationServerMetadata.register(on: router, configuration: configuration.auth)
        SignInPage(accounts: accounts, storage: storage, configuration: configuration.auth, templates: templates, proxies: configuration.trustedProxies)
            .register(on: router, sessionStorage: storage)
        try OpenAPIRoute().register(on: api)
        HomeRoute(templates: templates).register(on: router)
        OperationsRoutes(storage: storage, readiness: readiness, metrics: metrics, readinessTimeout: configuration.readinessTimeout).register(on: router)
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
    /// The socket could not be bound; `errorCode` is the system's `errno`.
    case cannotListen(host: String, port: Int, errorCode: Int32)

    public var description: String {
        switch self {
        case let .stoppedBeforeListening(host):
            "the server stopped before it could listen on \(host)"
        case let .cannotListen(_, port, errorCode):
            switch errorCode {
            case EADDRINUSE: "the port \(port) is already in use; stop the other server or choose another --port (0 picks a free one)"
            case EACCES: "permission denied; ports below 1024 need privileges, choose another --port"
            case EADDRNOTAVAIL: "the address is not one of this machine's; use --host 127.0.0.1 or 0.0.0.0"
            default: "the socket could not be bound (\(String(cString: strerror(errorCode))))"
            }
        }
    }
}
