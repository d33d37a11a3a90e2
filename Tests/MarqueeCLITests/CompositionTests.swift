import Foundation
import MarqueeTestSupport
import MovieAPI
import MovieStore
import Movies
import Networking
import ReferenceAPI
import Swinject
import Testing
@testable import marquee

/// The Swinject composition root: the whole graph resolves for every environment, shared pieces
/// are shared, and transient ones are made fresh.
@Suite("Composition root")
struct CompositionTests {
    /// One way the app can be wired: an API, reached somewhere, and the stub's scenario.
    struct Wiring: CustomTestStringConvertible, Sendable {
        let environment: APIEnvironment
        let scenario: StubScenario?
        var testDescription: String { scenario.map { "stub:\($0.rawValue)" } ?? environment.identity.key }
    }

    static let wirings: [Wiring] = [
        Wiring(environment: APIEnvironment(.embedded, at: URL(string: "http://127.0.0.1:1/api/")!), scenario: nil),
        Wiring(environment: .production, scenario: nil),
        // A literal that is a valid base URL.
        Wiring(environment: APIEnvironment(.custom(try! APIBaseURL("https://movies.example/api")))!, scenario: nil),
    ] + StubScenario.allCases.map { Wiring(environment: APIEnvironment(.stub, at: ReferenceStubs.baseURL), scenario: $0) }

    static let stub = wirings.last { $0.scenario == .success }!

    /// Runs `body` with a container for `wiring`, then shuts it down.
    func withContainer(_ wiring: Wiring, _ body: (AppContainer) async throws -> Void) async throws {
        let app = try container(wiring)
        do {
            try await body(app)
        } catch {
            await app.shutdown()
            throw error
        }
        await app.shutdown()
    }

    func container(_ wiring: Wiring) throws -> AppContainer {
        let folder = TestFolders.temporary.appendingPathComponent("composition-\(UUID().uuidString)")
        let store = try MovieStore(url: folder.appendingPathComponent("movies.sqlite"))
        return AppContainer(settings: AppSettings(
            environment: wiring.environment, stubScenario: wiring.scenario, store: store, defaultPolicy: .networkElseCache,
            credentialsFile: folder.appendingPathComponent("credentials.json")
        ))
    }

    @Test("every service of the graph resolves", arguments: wirings)
    func resolvesTheGraph(wiring: Wiring) async throws {
        try await withContainer(wiring) { app in
            let resolver = app.resolver
            #expect(resolver.resolve((any APIContext).self) != nil)
            #expect(resolver.resolve((any Transport).self) != nil)
            #expect(resolver.resolve(APIClientStack.self) != nil)
            #expect(resolver.resolve(APIClient.self) != nil)
            #expect(resolver.resolve(APIMovieService.self) != nil)
            #expect(resolver.resolve((any OfflineMovieService<NetworkError>).self) is CachedMovieService<APIMovieService>)
            #expect(resolver.resolve((any APIContext).self)?.environment == wiring.environment)
        }
    }

    @Test("the environment picks the implementations", arguments: wirings)
    func picksImplementations(wiring: Wiring) async throws {
        try await withContainer(wiring) { app in
            let transport = app.resolver.resolved((any Transport).self)
            let context = app.resolver.resolved((any APIContext).self)
            let authService = app.resolver.resolved(APIClientStack.self).authService
            switch wiring.environment.identity {
            case .stub:
                #expect(transport is StubTransport)
                #expect(context is InMemoryAPIContext)
            case .embedded:
                #expect(transport is AsyncHTTPClientTransport)
                #expect(context is InMemoryAPIContext)
            case .production, .custom:
                #expect(transport is AsyncHTTPClientTransport)
                #expect(context is FileAPIContext)
            }
            #expect((authService is LegacyTokenAuthService) == (wiring.environment.identity == .production))
        }
    }

    @Test("the context, transport, interceptor, store and cached service are single shared instances")
    func sharesSingletons() async throws {
        try await withContainer(Self.stub) { app in
            let resolver = app.resolver
            let contexts = (resolver.resolved((any APIContext).self), resolver.resolved((any APIContext).self))
            #expect(contexts.0 as AnyObject === contexts.1 as AnyObject)
            let transports = (resolver.resolved((any Transport).self), resolver.resolved((any Transport).self))
            #expect(transports.0 as AnyObject === transports.1 as AnyObject)
            let stack = resolver.resolved(APIClientStack.self)
            #expect(stack.interceptor === resolver.resolved(APIClientStack.self).interceptor)
            #expect(resolver.resolved(MovieStore.self) === resolver.resolved(MovieStore.self))
            let cached = resolver.resolved((any OfflineMovieService<NetworkError>).self) as? CachedMovieService<APIMovieService>
            #expect(cached != nil && cached === resolver.resolved((any OfflineMovieService<NetworkError>).self) as? CachedMovieService<APIMovieService>)

            let apiClient = resolver.resolved(APIClient.self)
            let shared = try #require(apiClient.transport as? SharedExchangeTransport, "identical requests in flight share one exchange")
            #expect(shared.base as AnyObject === transports.0 as AnyObject)
            #expect(apiClient.interceptors.count == 2)
            #expect(apiClient.interceptors[0] as AnyObject === stack.interceptor)
            #expect(apiClient.interceptors[1] is RetryPolicy, "authentication decides first, the retry policy second")
        }
    }

    @Test("the API movie service is transient: a fresh one each time, over the same shared transport")
    func makesTransientsFresh() async throws {
        try await withContainer(Self.stub) { app in
            let first = app.resolver.resolved(APIMovieService.self)
            let second = app.resolver.resolved(APIMovieService.self)
            #expect(first !== second)
        }
    }

    @Test("two containers share nothing")
    func separatesContainers() async throws {
        let one = try container(Self.stub), other = try container(Self.stub)
        #expect(one.resolver.resolved((any APIContext).self) as AnyObject !== other.resolver.resolved((any APIContext).self) as AnyObject)
    }

    @Test("the resolved service works end to end on the stub")
    func worksOnTheStub() async throws {
        try await withContainer(Self.stub) { app in
            let movies = try await app.movieService.movies(.topGrossing, year: 2016)
            #expect(movies.first?.name == "Finding Dory")
        }
    }
}
