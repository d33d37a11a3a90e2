import ArgumentParser
import Foundation
import Logging
import Telemetry
import MovieServer
import MovieServerDatabases

/// `marquee serve`: run the movie API until interrupted.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the movie API over HTTP until interrupted (Ctrl-C).",
        discussion: """
            Movie paths require a bearer token from POST /api/auth/token unless --public is given. \
            The client id and secret come from --client-id/--client-secret, else MARQUEE_CLIENT_ID/\
            MARQUEE_CLIENT_SECRET, else the development pair marquee-dev/marquee-dev-secret. \
            Tokens are signed with the newest key of --signing-keys FILE (lines 'KEY-ID SECRET', oldest \
            first), else of MARQUEE_SIGNING_KEYS, else with MARQUEE_SIGNING_KEY, else with a key made at \
            start, which a restart replaces: the access tokens and search cursors given before are then \
            refused (clients renew their tokens; a cursor's search starts again from its first page). With --database, the catalog and refresh tokens live in PostgreSQL \
            (postgres://user:password@host:port/database) or a SQLite file; load movies into it \
            with 'marquee catalog import --bundled' (the ten bundled movies) or 'marquee catalog import FILE'.
            """
    )

    @Option(help: "The address to listen on.")
    var host = "127.0.0.1"

    @Option(parsing: .unconditional, help: "The port to listen on, 0 for any free port.")
    var port = ServerSetting.port.defaultValue

    @Option(help: ArgumentHelp("A JSON file of movies to serve instead of the bundled catalog.", valueName: "file"))
    var catalog: String?

    @Option(name: .customLong("database"), help: ArgumentHelp("Keep the catalog and refresh tokens in this database: postgres://… or a SQLite file (default: $MARQUEE_DATABASE_URL, which keeps a password out of 'ps').", valueName: "url"))
    var databaseOption: String?

    /// `--database`, else `MARQUEE_DATABASE_URL` unless `--catalog` is given.
    var database: String? { databaseOption ?? (catalog == nil ? DatabaseArgument.fromEnvironment() : nil) }

    @Option(name: .customLong("signing-keys"), help: ArgumentHelp("A file of token signing keys, one 'KEY-ID SECRET' a line, newest last; readable by its owner only.", valueName: "file"))
    var signingKeys: String?

    @Option(name: .customLong("drain-delay"), parsing: .unconditional, help: ArgumentHelp("After SIGTERM, how long to keep serving while /health/ready reports not ready.", valueName: "seconds"))
    var drainDelay = ServerSetting.drainDelay.defaultValue

    @Option(name: .customLong("shutdown-timeout"), parsing: .unconditional, help: ArgumentHelp("After SIGTERM, how long requests in flight may take to finish.", valueName: "seconds"))
    var shutdownTimeout = ServerSetting.shutdownTimeout.defaultValue

    @Flag(help: "Serve the movie paths without authentication, like the original static site.")
    var `public` = false

    @Option(name: .customLong("ready-timeout"), parsing: .unconditional, help: ArgumentHelp("How long /health/ready waits for the database before it answers 503.", valueName: "seconds"))
    var readyTimeout = ServerSetting.readinessTimeout.defaultValue

    @Option(name: .customLong("query-timeout"), parsing: .unconditional, help: ArgumentHelp("With a --database: how long one request may wait for the database in all before it answers 503 (default \(ServerSetting.queryTimeout.defaultValue)).", valueName: "seconds"))
    var queryTimeout: Int?

    @Option(name: .customLong("token-ttl"), parsing: .unconditional, help: ArgumentHelp("How long an access token is valid.", valueName: "seconds"))
    var tokenLifetime = ServerSetting.accessTokenLifetime.defaultValue

    @Option(help: "The client id allowed to obtain tokens.")
    var clientID: String?

    @Option(help: "The client secret; prefer MARQUEE_CLIENT_SECRET, which other users cannot see.")
    var clientSecret: String?

    @Option(name: .customLong("clients"), help: ArgumentHelp("A file of more clients allowed to obtain tokens, one 'CLIENT-ID SECRET' a line, readable by its owner only. Watchlists belong to the people who sign in, whichever client they use.", valueName: "file"))
    var clientsFile: String?

    @Option(name: .customLong("header-timeout"), parsing: .unconditional, help: ArgumentHelp("How long a client may take to send a request's head.", valueName: "seconds"))
    var headerTimeout = ServerSetting.headerTimeout.defaultValue

    @Option(name: .customLong("idle-timeout"), parsing: .unconditional, help: ArgumentHelp("How long a connection may stay idle before it is closed.", valueName: "seconds"))
    var idleTimeout = ServerSetting.idleTimeout.defaultValue

    @Option(name: .customLong("max-age"), parsing: .unconditional, help: ArgumentHelp("How long clients may use a movie answer before asking again (Cache-Control: max-age).", valueName: "seconds"))
    var maximumAge = ServerSetting.maximumAge.defaultValue

    @Option(name: .customLong("cache-size"), parsing: .unconditional, help: ArgumentHelp("How many MiB the response cache may keep: every movie, list, 404 and search page answered, until the catalogue changes.", valueName: "MiB"))
    var cacheSize = ServerSetting.responseCacheMegabytes.defaultValue

    @Flag(name: .customLong("route-every-request"), help: ArgumentHelp("Answer every request through the router, also the kept answers the event loop gives (the same bytes, slower): to measure the router path.", visibility: .hidden))
    var routeEveryRequest = false

    @Option(name: .customLong("max-connections"), parsing: .unconditional, help: "How many connections may be open at once.")
    var maximumConnections = ServerSetting.maximumConnections.defaultValue

    @Option(name: .customLong("max-event-streams"), parsing: .unconditional, help: ArgumentHelp("How many event streams (GET /api/events) may be open at once; at most three quarters of --max-connections.", valueName: "count"))
    var maximumEventStreams = ServerSetting.maximumEventStreams.defaultValue

    @Option(name: .customLong("event-streams-per-address"), parsing: .unconditional, help: ArgumentHelp("How many event streams one client address (an IPv6 address by its /64) may hold, whoever's accounts it uses. The last quarter of --max-event-streams goes only to people who hold none, from addresses that hold none.", valueName: "count"))
    var eventStreamsPerAddress = ServerSetting.eventStreamsPerAddress.defaultValue

    @Option(name: .customLong("event-streams-per-account"), parsing: .unconditional, help: ArgumentHelp("How many event streams one account may hold: a person's devices.", valueName: "count"))
    var eventStreamsPerAccount = ServerSetting.eventStreamsPerAccount.defaultValue

    @Option(name: .customLong("event-streams-per-application"), parsing: .unconditional, help: ArgumentHelp("How many event streams one client application may hold with its own token (no person); applications together hold at most half of --max-event-streams.", valueName: "count"))
    var eventStreamsPerApplication = ServerSetting.eventStreamsPerApplication.defaultValue

    @Option(name: .customLong("event-retention"), parsing: .unconditional, help: ArgumentHelp("How long the event feed keeps an event: a client that was away longer is told to fetch again (reset).", valueName: "seconds"))
    var eventRetention = ServerSetting.eventRetention.defaultValue

    @Flag(name: .customLong("no-sign-up"), help: "People cannot create accounts on the sign-in page; only 'marquee accounts add' can.")
    var noSignUp = false

    @Option(name: .customLong("public-url"), help: ArgumentHelp("Where people reach this server (https://movies.example.com): the sign-in page's address given to devices; https also marks its cookie Secure. Default: the request's Host, over http.", valueName: "url"))
    var publicURL: String?

    @Option(name: .customLong("trusted-proxy"), help: ArgumentHelp("A proxy this server stands behind (an address or a range: 10.0.0.0/8, ::1); repeat it for several. A request from one names its client in --forwarded-header, read from its right end. Needs --public-url.", valueName: "cidr"))
    var trustedProxies: [String] = []

    @Option(name: .customLong("forwarded-header"), help: ArgumentHelp("The header the trusted proxies write the client's address in: x-forwarded-for (nginx's $proxy_add_x_forwarded_for) or forwarded (RFC 7239). The other one is never read.", valueName: "name"))
    var forwardedHeader = TrustedProxies.Header.xForwardedFor.rawValue

    @Flag(name: .customLong("trust-trace-flags"), inversion: .prefixedNo, help: ArgumentHelp("Whether a request's traceparent sampled flag decides that it is traced (else the OTEL_TRACES_SAMPLER ratio does): a flag anyone may set, so off by default unless behind --trusted-proxy (or MARQUEE_TRUST_TRACE_FLAGS=true/false)."))
    var trustTraceFlags: Bool?

    @Option(name: .customLong("traces-per-minute"), parsing: .unconditional, help: ArgumentHelp("How many requests with a traceparent one client address may have traced a minute.", valueName: "count"))
    var tracesPerMinute = ServerSetting.tracesPerMinute.defaultValue

    @Option(name: .customLong("device-code-lifetime"), parsing: .unconditional, help: ArgumentHelp("How long a device's sign-in code waits for a person's approval.", valueName: "seconds"))
    var deviceCodeLifetime = 600

    @Option(name: .customLong("sign-in-limit"), parsing: .unconditional, help: ArgumentHelp("How many failed sign-ins one address may make on the page in ten minutes before it waits (an account may have twice as many).", valueName: "count"))
    var signInLimit = 10

    @Option(name: .customLong("password-cost"), parsing: .unconditional, help: ArgumentHelp("The bcrypt cost of new password hashes (each step doubles the work).", valueName: "cost"))
    var passwordCost = Int(PasswordHasher.defaultCost)

    @Option(help: ArgumentHelp("What to log: trace, debug, info (one line a request), notice (start and grants), warning, error.", valueName: "level"))
    var logLevel: Logger.Level = .info

    private var effectiveQueryTimeout: Int { queryTimeout ?? ServerSetting.queryTimeout.defaultValue }

    func validate() throws {
        let settings: [(ServerSetting, Int?)] = [
            (.port, port), (.headerTimeout, headerTimeout), (.idleTimeout, idleTimeout), (.maximumConnections, maximumConnections),
            (.maximumAge, maximumAge), (.drainDelay, drainDelay), (.readinessTimeout, readyTimeout), (.queryTimeout, queryTimeout),
            (.shutdownTimeout, shutdownTimeout), (.accessTokenLifetime, tokenLifetime), (.responseCacheMegabytes, cacheSize),
            (.maximumEventStreams, maximumEventStreams), (.eventRetention, eventRetention), (.tracesPerMinute, tracesPerMinute),
            (.eventStreamsPerAddress, eventStreamsPerAddress), (.eventStreamsPerAccount, eventStreamsPerAccount),
            (.eventStreamsPerApplication, eventStreamsPerApplication),
        ]
        for case let (setting, value?) in settings {
            if let problem = setting.problem(with: value) { throw ValidationError(problem) }
        }
        if queryTimeout != nil, database == nil {
            throw ValidationError("--query-timeout is for a --database (PostgreSQL or SQLite)")
        }
        if databaseOption != nil, catalog != nil {
            throw ValidationError("--catalog and --database cannot be used together: load the file with 'marquee catalog import FILE --database URL'")
        }
        try PasswordCost.check(passwordCost)
        guard (1...86_400).contains(deviceCodeLifetime) else {
            throw ValidationError("the device code lifetime must be from 1 to 86400 seconds, not \(deviceCodeLifetime)")
        }
        guard (1...1_000_000).contains(signInLimit) else {
            throw ValidationError("the sign-in limit must be from 1 to 1000000, not \(signInLimit)")
        }
        if let publicURL, !(publicURL.hasPrefix("http://") || publicURL.hasPrefix("https://")) || URL(string: publicURL)?.host == nil {
            throw ValidationError("--public-url must be an http:// or https:// address with a host, such as https://movies.example.com")
        }
        _ = try proxies()
        if !trustedProxies.isEmpty, publicURL == nil {
            throw ValidationError("--trusted-proxy needs --public-url: behind a proxy, the Host header is whatever its clients send, and the server would write it into the links it gives devices")
        }
    }

    /// `--trusted-proxy` and `--forwarded-header`, read.
    private func proxies() throws -> TrustedProxies {
        guard let header = TrustedProxies.Header(rawValue: forwardedHeader.lowercased()) else {
            throw ValidationError("--forwarded-header must be x-forwarded-for or forwarded, not '\(forwardedHeader)'")
        }
        do {
            return TrustedProxies(try trustedProxies.map { text throws(TrustedProxyError) in try TrustedProxies.Range(parsing: text) }, header: header)
        } catch {
            throw ValidationError("--trusted-proxy: \(error.description)")
        }
    }

    /// `--trust-trace-flags`, else `MARQUEE_TRUST_TRACE_FLAGS`, else whether the server stands
    /// behind trusted proxies: a public instance's callers set their flag as they like.
    func trustsTraceFlags(behindProxies: Bool, environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
        if let trustTraceFlags { return trustTraceFlags }
        switch environment["MARQUEE_TRUST_TRACE_FLAGS"]?.lowercased() {
        case "true", "1", "yes": return true
        case "false", "0", "no": return false
        default: return behindProxies
        }
    }

    /// How long a stopped server waits for its database to close.
    static let closeLimit = Duration.seconds(10)

    func run() async throws {
        var logger = Logger(label: "marquee.server")
        logger.logLevel = logLevel
        let auth = try authConfiguration(logger: logger)
        let storage = try await openStorage(logger: logger)
        let limits = ConnectionLimits(headerTimeout: .seconds(headerTimeout), idleTimeout: .seconds(idleTimeout), maximumConnections: maximumConnections)
        var configuration = MovieServer.Configuration(
            host: host, port: port, storage: storage, auth: auth, limits: limits, maxAge: .seconds(maximumAge),
            drainDelay: .seconds(drainDelay), shutdownTimeout: .seconds(shutdownTimeout),
            readinessTimeout: .seconds(readyTimeout), queryTimeout: .seconds(effectiveQueryTimeout), logger: logger
        )
        configuration.responseCacheBytes = cacheSize * 1_048_576
        configuration.answersOnEventLoop = !routeEveryRequest
        configuration.feed.maximumStreams = maximumEventStreams
        configuration.feed.streamsPerAddress = eventStreamsPerAddress
        configuration.feed.streamsPerPerson = eventStreamsPerAccount
        configuration.feed.streamsPerApplication = eventStreamsPerApplication
        configuration.feed.retention = .seconds(eventRetention)
        configuration.trustedProxies = try proxies()
        if let export = TraceExport(environment: ProcessInfo.processInfo.environment, defaultServiceName: "marquee-server") {
            configuration.companions = [try export.start(logger: logger)]
            configuration.tracesRequests = true
            configuration.traceSampling = TraceSampling(
                trustsCallerFlags: trustsTraceFlags(behindProxies: !configuration.trustedProxies.isEmpty),
                ratio: export.rootRatio, tracesPerMinute: tracesPerMinute
            )
            logger.notice("traces go to the OpenTelemetry collector the OTEL_* environment names")
        }
        let server = await MovieServer(configuration: configuration)
        do {
            try await server.run()
            await StorageClosing.close(storage, within: Self.closeLimit, logger: logger)
        } catch {
            await StorageClosing.close(storage, within: Self.closeLimit, logger: logger)
            throw CLIError.cannotServe(host: host, port: port, reason: ErrorReporter.describe(error))
        }
    }

    private func openStorage(logger: Logger) async throws -> any ServerStorage {
        guard let database else {
            let movies = try catalog.map { try Catalog.load(from: URL(fileURLWithPath: $0)) } ?? Catalog.reference()
            return MemoryStorage(catalog: movies)
        }
        let storage = try await DatabaseLocation(parsing: database).open(logger: logger, queryTimeout: .seconds(effectiveQueryTimeout))
        if try await storage.catalogVersion() == 0 {
            logger.warning("the database holds no movies yet: load the ten bundled ones with 'marquee catalog import --bundled --database URL', or a catalog file with 'marquee catalog import FILE --database URL'")
        }
        storage.prepareSearch()
        return storage
    }

    /// The clients admitted: the one from `--client-id` (or the environment, or the development
    /// pair) and those of `--clients`. A server given a clients file never admits the development
    /// pair, whose secret is public.
    private func authConfiguration(logger: Logger) throws -> AuthConfiguration {
        let variables = ProcessInfo.processInfo.environment
        let fromEnvironment = ClientSecrets.fromEnvironment(variables)
        let main = ClientCredentials(id: clientID ?? fromEnvironment.id, secret: clientSecret ?? fromEnvironment.secret)
        var clients = [main]
        if let clientsFile {
            let isDevelopmentPair = main.id == ClientCredentials.development.id && main.secret == ClientCredentials.development.secret
            let listed = try ClientsFile.read(clientsFile, besides: isDevelopmentPair ? nil : main)
            if isDevelopmentPair {
                clients = listed
                logger.notice("the development client \(main.id) is not admitted: the clients come from \(clientsFile)")
            } else {
                clients += listed
            }
        }
        var auth = AuthConfiguration(
            requiresToken: !self.public,
            client: clients[0],
            otherClients: Array(clients.dropFirst()),
            accessTokenLifetime: .seconds(tokenLifetime),
            signingKeys: try SigningKeySource.ring(file: signingKeys, environment: variables)
        )
        auth.allowsSignUp = !noSignUp
        auth.publicURL = publicURL
        auth.passwordHashCost = UInt8(passwordCost)
        auth.signInLimit = signInLimit
        auth.deviceCodeLifetime = .seconds(deviceCodeLifetime)
        return auth
    }
}
