import Foundation
import MarqueeTestSupport
import MovieAPI
import MovieStore
import Movies
import NIOConcurrencyHelpers
import NetworkTestSupport
import Networking
import Testing

/// Every fault of the fault server, through `APIMovieService` and through `CachedMovieService`:
/// the call ends within its deadline with the right typed error, after the specified number of
/// attempts, the store keeps what it had, and the HTTP client shuts down cleanly.
@Suite("Fault injection", .timeLimit(.minutes(3)))
struct FaultInjectionTests {
    /// A fault, or a port where nothing listens.
    enum Case: Sendable, CustomTestStringConvertible {
        case fault(FaultServer.Fault)
        case refusedConnection

        var testDescription: String {
            switch self {
            case let .fault(fault): fault.rawValue
            case .refusedConnection: "refusedConnection"
            }
        }

        /// Short where the fault is silence (so the test is quick), roomy where a loaded machine
        /// must still read a body to its end or its limit.
        var attemptTimeout: Duration {
            switch self {
            case .fault(.hang), .fault(.drip): .milliseconds(400)
            default: .seconds(10)
            }
        }

        /// What the call must end with, and how many attempts the retry policy allows it.
        var expected: (error: (NetworkError) -> Bool, attempts: Int) {
            switch self {
            case .refusedConnection: ({ if case .cannotConnect = $0 { true } else { false } }, 3)
            case let .fault(fault):
                switch fault {
                case .hang, .drip: ({ if case .timedOut = $0 { true } else { false } }, 3)
                case .reset, .truncated: ({ if case .connectionLost = $0 { true } else { false } }, 3)
                case .status500: ({ $0.statusCode == 500 }, 3)
                case .status503, .status503RetryAfterSeconds, .status503RetryAfterDate: ({ $0.statusCode == 503 }, 3)
                case .malformedJSON: ({ if case .cannotDecode(path: "$", _) = $0 { true } else { false } }, 1)
                case .wrongTypes: ({ if case .cannotDecode(path: "$[0].name", _) = $0 { true } else { false } }, 1)
                case .huge, .gzipBomb: ({ $0 == .bodyTooLarge(limit: 10 * 1024 * 1024) }, 1)
                case .redirectToInvalidPort: ({ if case .redirectRefused = $0 { true } else { false } }, 1)
                case .challengeThenTokenRedirect307, .challengeThenTokenRedirect302, .challengeThenHugeExpiry: ({ $0.statusCode == 401 }, 1)
                case .escapeCodesInError: ({ $0.statusCode == 404 }, 1)
                case .redirectToOtherHost, .ok, .escapeCodes: ({ _ in false }, 1)
                }
            }
        }
    }

    static let failing: [Case] = FaultServer.Fault.allCases.filter { ![.ok, .redirectToOtherHost, .escapeCodes].contains($0) }.map(Case.fault) + [.refusedConnection]
    static let deadline = Duration.seconds(30)

    @Test("APIMovieService ends with the right typed error after the specified attempts", arguments: failing)
    func apiMovieService(fault: Case) async throws {
        try await withFaultClient(fault) { client, counter in
            let started = ContinuousClock.now
            do {
                _ = try await APIMovieService(client: client).movies(.topGrossing, year: 2016)
                Issue.record("\(fault.testDescription) should fail")
            } catch let error as NetworkError {
                #expect(fault.expected.error(error), "\(fault.testDescription) ended with \(error)")
            }
            #expect(ContinuousClock.now - started < Self.deadline + .seconds(2), "the call ends by its deadline (with room for a loaded machine)")
            #expect(counter.count == fault.expected.attempts, "\(fault.testDescription): attempts")
            switch fault {
            case .fault(.status503RetryAfterSeconds):
                #expect(counter.delays == [.seconds(1), .seconds(1)], "Retry-After: 1 sets both waits")
            case .fault(.status503RetryAfterDate):
                #expect(counter.delays.count == 2 && counter.delays.allSatisfy { $0 <= .seconds(1) })
            default:
                #expect(counter.delays.allSatisfy { $0 <= .milliseconds(40) }, "full jitter under 20 ms × 2")
            }
        }
    }

    @Test("CachedMovieService answers the stored list, stale, with the same error (a 4xx: throws it), and the store is unchanged", arguments: failing)
    func cachedMovieService(fault: Case) async throws {
        let store = try MovieStore(url: TestFolders.temporary.appendingPathComponent("faults-\(UUID().uuidString)/movies.sqlite"))
        let seed = [Movie(id: 1, name: "Seed", year: 2016, releaseDate: Date(timeIntervalSince1970: 1_451_606_400), grossing: 1, rating: 1, cast: [])]
        let seededAt = Date(timeIntervalSince1970: 1_800_000_000)
        try await store.saveList(seed, for: ListQuery(.topGrossing, year: 2016), api: "test", fetchedAt: seededAt)
        let before = try await store.statistics()

        try await withFaultClient(fault) { client, counter in
            let cached = CachedMovieService(base: APIMovieService(client: client), store: store, api: "test")
            do {
                let snapshot = try await cached.movies(.topGrossing, year: 2016, policy: .networkElseCache)
                #expect(snapshot.isStale)
                #expect(snapshot.value == seed)
                let error = try #require(snapshot.networkError)
                #expect(fault.expected.error(error), "\(fault.testDescription) ended with \(error)")
                #expect(error.meansServerUnavailable, "\(fault.testDescription): only an unavailable server lets the store stand in")
            } catch let failure as CacheFailure<NetworkError> {
                guard case let .network(error) = failure else { throw failure }
                #expect(fault.expected.error(error), "\(fault.testDescription) ended with \(error)")
                #expect(!error.meansServerUnavailable && (400..<500).contains(error.statusCode ?? 0), "\(fault.testDescription): a 4xx is the error: \(error)")
            }
            #expect(counter.count == fault.expected.attempts)
        }
        #expect(try await store.list(ListQuery(.topGrossing, year: 2016), api: "test") == StoredValue(value: seed, fetchedAt: seededAt))
        #expect(try await store.statistics() == before)
        #expect(try await store.checkIntegrity().isEmpty)
    }

    @Test("a redirect to another host loses the credential headers, and the call succeeds", arguments: [AuthorizationHeader.bearer, .custom(.init("AUTH_TOKEN")!)])
    func redirectDropsCredentials(header: AuthorizationHeader) async throws {
        let server = try await FaultServer.start()
        let transport = AsyncHTTPClientTransport()
        let credential = Credential(accessToken: "secret-token", refreshToken: nil, issuedAt: Date(), expiresAt: Date(timeIntervalSinceNow: 3600))
        let context = InMemoryAPIContext(environment: APIEnvironment(.embedded, at: server.baseURL(for: .redirectToOtherHost)), credential: credential)
        let authService = LegacyTokenAuthService(client: APIClient(baseURL: server.baseURL(for: .ok), transport: transport))
        let interceptor = AuthenticationInterceptor(authenticator: APIAuthenticator(authService: authService, header: header), store: context)
        let client = APIClient(baseURL: server.baseURL(for: .redirectToOtherHost), transport: transport, interceptors: [interceptor, RetryPolicy()])

        let movies = try await APIMovieService(client: client).movies(.topRated, year: 1995)
        #expect(movies.map(\.name) == ["Heat"])
        let sent = try #require(server.mainHostRequests.first)
        #expect(sent[header == .bearer ? "authorization" : "auth_token"] == (header == .bearer ? "Bearer secret-token" : "secret-token"))
        let received = try #require(server.otherHostRequests.first)
        #expect(received["authorization"] == nil)
        #expect(received["auth_token"] == nil)
        #expect(!received.values.contains { $0.contains("secret-token") })
        try await transport.shutdown()
        await server.stop()
    }

    /// Runs `body` with a client for `fault` (short timeouts, fast retries, a deadline) and a count
    /// of the requests its transport sent; then shuts the client down, which must not fail.
    private func withFaultClient(_ fault: Case, _ body: (APIClient, CountingTransport) async throws -> Void) async throws {
        let server = try await FaultServer.start()
        let baseURL: URL
        switch fault {
        case let .fault(fault): baseURL = server.baseURL(for: fault)
        case .refusedConnection: baseURL = URL(string: "http://127.0.0.1:\(try await closedLoopbackPort())/api/")!
        }
        let live = AsyncHTTPClientTransport()
        let counter = CountingTransport(live)
        let client = APIClient(
            baseURL: baseURL, transport: counter,
            interceptors: [RetryPolicy(baseDelay: .milliseconds(20), maximumDelay: .seconds(2))],
            defaultTimeout: fault.attemptTimeout, deadline: Self.deadline,
            sleep: { delay in
                counter.recordDelay(delay)
                try await Task.sleep(for: delay)
            }
        )
        do {
            try await body(client, counter)
        } catch {
            try await live.shutdown()
            await server.stop()
            throw error
        }
        try await live.shutdown()
        await server.stop()
    }
}

/// A transport decorator that counts the requests it passes on, and keeps the client's waits between them.
final class CountingTransport: Transport {
    private let base: any Transport
    private let sent = NIOLockedValueBox(0)
    private let waits = NIOLockedValueBox<[Duration]>([])

    init(_ base: any Transport) {
        self.base = base
    }

    var count: Int { sent.withLockedValue { $0 } }
    var delays: [Duration] { waits.withLockedValue { $0 } }

    func recordDelay(_ delay: Duration) { waits.withLockedValue { $0.append(delay) } }

    func send(_ request: APIRequest) async throws(NetworkError) -> APIResponse {
        sent.withLockedValue { $0 += 1 }
        return try await base.send(request)
    }
}
