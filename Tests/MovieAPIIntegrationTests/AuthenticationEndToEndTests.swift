import Foundation
import MarqueeTestSupport
import MovieAPI
import MovieServer
import Movies
import NetworkTestSupport
import Networking
import ServerTestSupport
import Testing

/// The whole authentication path over real sockets: `APIAuthService`, the interceptor and the
/// real token endpoint, under heavy concurrency. Counts come from the server's own ledger.
/// Serialized: each test already puts 1,000 requests on one server, and under ThreadSanitizer two
/// of them at once can starve connection set-up past its timeout.
@Suite("Authentication end to end", .serialized, .timeLimit(.minutes(3)))
struct AuthenticationEndToEndTests {
    static let concurrency = 1000

    /// A roomy connect timeout: instrumented builds accept connections far more slowly, and in
    /// the full suite on 2 cores a SYN the server's full backlog dropped is sent again after 31 s
    /// (then 63 s): these tests count grants and answers, not how fast a connection is made.
    static var transport: AsyncHTTPClientTransport.Configuration {
        var configuration = AsyncHTTPClientTransport.Configuration()
        configuration.connectTimeout = .seconds(100)
        return configuration
    }

    @Test("1,000 concurrent requests with an expired credential all succeed after exactly one refresh grant")
    func oneRefreshForExpiredCredentials() async throws {
        try await withMovieServer(auth: AuthConfiguration()) { server in
            try await withTransport(Self.transport) { transport in
                let stack = try Stack(server: server, transport: transport)
                var credential = try await stack.authService.authorize()
                credential.expiresAt = Date(timeIntervalSinceNow: -1)
                await stack.context.setCredential(credential)

                let successes = try await stack.concurrentTopGrossing(Self.concurrency)
                #expect(successes == Self.concurrency)
                #expect(server.grants == GrantLedger.Counts(clientCredentials: 1, refreshToken: 1, refused: 0))
                #expect(await stack.context.credential()?.needsRenewal(at: Date()) == false)
                #expect(try await Self.answered(by: server) == Double(Self.concurrency))
            }
        }
    }

    @Test("1,000 concurrent requests from a cold start (no credential) are challenged, share one grant, and all succeed")
    func oneGrantFromColdStart() async throws {
        try await withMovieServer(auth: AuthConfiguration()) { server in
            try await withTransport(Self.transport) { transport in
                let stack = try Stack(server: server, transport: transport)
                let successes = try await stack.concurrentTopGrossing(Self.concurrency)
                #expect(successes == Self.concurrency)
                #expect(server.grants == GrantLedger.Counts(clientCredentials: 1, refreshToken: 0, refused: 0))
                #expect(server.challenges >= 1)
                #expect(try await Self.answered(by: server) == Double(Self.concurrency), "every call reached the server and was answered 200 once")
            }
        }
    }

    @Test("1,000 concurrent requests refused with 401 share one refresh and are all retried")
    func oneRefreshForRefusedCredentials() async throws {
        try await withMovieServer(auth: AuthConfiguration()) { server in
            try await withTransport(Self.transport) { transport in
                let stack = try Stack(server: server, transport: transport)
                var credential = try await stack.authService.authorize()
                credential.accessToken = "revoked.by.server"
                await stack.context.setCredential(credential)

                let successes = try await stack.concurrentTopGrossing(Self.concurrency)
                #expect(successes == Self.concurrency)
                #expect(server.grants == GrantLedger.Counts(clientCredentials: 1, refreshToken: 1, refused: 0))
                // A request adapted after the shared refresh ended carries the new token: on a loaded
                // machine a few of the 1,000 start that late, and are never refused.
                #expect((1...Self.concurrency).contains(server.challenges), "the revoked token was refused, and no request twice")
                #expect(try await Self.answered(by: server) == Double(Self.concurrency))
            }
        }
    }

    @Test("when the server refuses the client (a rotated secret), all 1,000 fail with its 401 after one shared refresh, and the credential is kept for the right secret")
    func allFailTogether() async throws {
        let serverAuth = AuthConfiguration(client: ClientCredentials(id: "marquee-dev", secret: "rotated-secret"))
        try await withMovieServer(auth: serverAuth) { server in
            try await withTransport(Self.transport) { transport in
                let stack = try Stack(server: server, transport: transport)
                let now = Date()
                let stale = Credential(accessToken: "stale", refreshToken: "unknown-refresh-token", issuedAt: now.addingTimeInterval(-7200), expiresAt: now.addingTimeInterval(-3600))
                await stack.context.setCredential(stale)
                let outcomes = await stack.concurrentOutcomes(Self.concurrency)
                let clientRefusals = outcomes.filter { outcome in
                    if case .failure(.status(code: 401, _)) = outcome { true } else { false }
                }
                #expect(clientRefusals.count == Self.concurrency)
                #expect(await stack.context.credential() == stale)
                #expect(server.grants == GrantLedger.Counts(clientCredentials: 0, refreshToken: 0, refused: 1), "one shared renewal, refused, and no grant asked again")
            }
        }
    }

    @Test("APIAuthService: authorize, refresh, and a reused refresh token is rejected")
    func authServiceAgainstTheServer() async throws {
        try await withMovieServer(auth: AuthConfiguration(accessTokenLifetime: .seconds(90))) { server in
            try await withTransport(Self.transport) { transport in
                let stack = try Stack(server: server, transport: transport)
                let first = try await stack.authService.authorize()
                #expect(abs(first.expiresAt.timeIntervalSince(first.issuedAt) - 90) < 0.001)
                let refreshToken = try #require(first.refreshToken)
                let second = try await stack.authService.refresh(using: refreshToken)
                #expect(second.accessToken != first.accessToken)
                await #expect(throws: NetworkError.authenticationFailed("the server refused the refresh_token grant (invalid_grant: The refresh token is unknown, expired, already used or issued to another client.)")) {
                    try await stack.authService.refresh(using: refreshToken)
                }
                #expect(server.grants == GrantLedger.Counts(clientCredentials: 1, refreshToken: 1, refused: 1))
            }
        }
    }

    @Test("wrong client credentials are a 401 status error, never echoing the secret")
    func wrongClientSecret() async throws {
        try await withMovieServer(auth: AuthConfiguration()) { server in
            try await withTransport(Self.transport) { transport in
                let client = APIClient(baseURL: server.baseURL, transport: transport)
                let service = APIAuthService(client: client, clientCredentials: APIClientCredentials(id: "marquee-dev", secret: "not-the-secret"))
                do {
                    _ = try await service.authorize()
                    Issue.record("authorizing should fail")
                } catch let error as NetworkError {
                    #expect(error.statusCode == 401)
                    #expect(!"\(error)".contains("not-the-secret"))
                }
            }
        }
    }
}

extension AuthenticationEndToEndTests {
    /// How many top-grossing requests the server answered 200, from its own metrics.
    static func answered(by server: TestMovieServer) async throws -> Double {
        let metrics = try await LoopbackHTTP.send(port: server.port, "/metrics")
        return PrometheusText(metrics.body).value("marquee_http_requests_total", ["route": "/api/movies/topGrossing/{year}", "status": "200"]) ?? 0
    }
}

/// The client stack the app builds, against a test server, without shared exchanges: every call
/// is a request on the wire, so the server's counts are the calls'.
struct Stack {
    /// A request's time counts from when it joins the connection pool's queue: 1,000 of them on a
    /// loaded 2-core machine (the full suite runs beside them) wait longer than the app's 30 s.
    /// These tests count grants and answers; how fast they come is the benchmarks' concern.
    static let requestTimeout: Duration = .seconds(150)

    let context: InMemoryAPIContext
    let authService: any AuthService<NetworkError>
    let movies: APIMovieService

    init(server: TestMovieServer, transport: any Transport, credential: Credential? = nil) throws {
        context = InMemoryAPIContext(environment: APIEnvironment(APIIdentity(baseURL: try APIBaseURL(server.baseURL)), at: server.baseURL), credential: credential)
        let stack = APIClientStack(
            context: context, transport: transport, clientCredentials: .testClient, retryPolicy: nil,
            requestTimeout: Self.requestTimeout, callDeadline: nil, sharesExchanges: false
        )
        authService = stack.authService
        movies = stack.movieService
    }

    func concurrentTopGrossing(_ count: Int) async throws -> Int {
        try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<count {
                group.addTask {
                    let list = try await movies.movies(.topGrossing, year: 2016)
                    return list.count == 10 ? 1 : 0
                }
            }
            return try await group.reduce(0, +)
        }
    }

    func concurrentOutcomes(_ count: Int) async -> [Result<[Movie], NetworkError>] {
        await withTaskGroup(of: Result<[Movie], NetworkError>.self) { group in
            for _ in 0..<count {
                group.addTask {
                    do { return .success(try await movies.movies(.topGrossing, year: 2016)) } catch let error as NetworkError {
                        return .failure(error)
                    } catch {
                        return .failure(.connectionLost("unexpected \(error)"))
                    }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
    }
}
