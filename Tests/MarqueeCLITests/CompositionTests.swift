import Foundation
import MovieAPI
import MovieStore
import Movies
import Networking
import Swinject
import Testing
@testable import marquee

/// The Swinject composition root: the whole graph resolves for every environment, shared pieces
/// are shared, and transient ones are made fresh.
@Suite("Composition root")
struct CompositionTests {
    static let environments: [AppEnvironment] =
        [.embedded(URL(string: "http://127.0.0.1:1/api/")!), .production, .custom(URL(string: "https://movies.example/api")!)]
        + StubScenario.allCases.map(AppEnvironment.stub)

    /// Runs `body` with a container for `environment`, then shuts it down.
    func withContainer(_ environment: AppEnvironment, _ body: (AppContainer) async throws -> Void) async throws {
        let app = try container(environment)
        do {
            try await body(app)
        } catch {
            await app.shutdown()
            throw error
        }
        await app.shutdown()
    }

    func container(_ environment: AppEnvironment) throws -> AppContainer {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("composition-\(UUID().uuidString)")
        let store = try MovieStore(url: folder.appendingPathComponent("movies.sqlite"))
        return AppContainer(settings: AppSettings(
            environment: environment, store: store, defaultPolicy: .networkElseCache,
            credentialsFile: folder.appendingPathComponent("credentials.json")
        ))
    }

    @Test("every service of the graph resolves", arguments: environments)
    func resolvesTheGraph(environment: AppEnvironment) async throws {
        try await withContainer(environment) { app in
            let resolver = app.resolver
            #expect(resolver.resolve((any ApiContext).self) != nil)
            #expect(resolver.resolve((any Transport).self) != nil)
            #expect(resolver.resolve(APIClient.self) != nil)
            #expect(resolver.resolve(APIClient.self, name: ApiAssembly.tokenClient) != nil)
            #expect(resolver.resolve((any AuthService).self) != nil)
            #expect(resolver.resolve(AuthenticationInterceptor<ApiAuthenticator>.self) != nil)
            #expect(resolver.resolve((any MovieService).self, name: MoviesAssembly.api) is ApiMovieService)
            #expect(resolver.resolve((any MovieService).self) is CachedMovieService)
            #expect(resolver.resolve((any OfflineMovieService).self) is CachedMovieService)
            #expect(resolver.resolve((any ApiContext).self)?.environment == environment.api)
        }
    }

    @Test("the environment picks the implementations", arguments: environments)
    func picksImplementations(environment: AppEnvironment) async throws {
        try await withContainer(environment) { app in
            let transport = app.resolver.resolved((any Transport).self)
            let context = app.resolver.resolved((any ApiContext).self)
            let authService = app.resolver.resolved((any AuthService).self)
            switch environment {
            case .stub:
            #expect(transport is StubTransport)
            #expect(context is InMemoryApiContext)
            case .embedded:
            #expect(transport is AsyncHTTPClientTransport)
            #expect(context is InMemoryApiContext)
            case .production, .custom:
            #expect(transport is AsyncHTTPClientTransport)
            #expect(context is FileApiContext)
        }
        #expect((authService is LegacyTokenAuthService) == (environment == .production))
        }
    }

    @Test("the context, transport, interceptor, store and cached service are single shared instances")
    func sharesSingletons() async throws {
        try await withContainer(.stub(.success)) { app in
            let resolver = app.resolver
            #expect(identity(resolver.resolved((any ApiContext).self)) == identity(resolver.resolved((any ApiContext).self)))
            #expect(identity(resolver.resolved((any Transport).self)) == identity(resolver.resolved((any Transport).self)))
            #expect(resolver.resolved(AuthenticationInterceptor<ApiAuthenticator>.self) === resolver.resolved(AuthenticationInterceptor<ApiAuthenticator>.self))
            #expect(resolver.resolved(MovieStore.self) === resolver.resolved(MovieStore.self))
            let cached = resolver.resolved(CachedMovieService.self)
            #expect(cached === resolver.resolved((any OfflineMovieService).self) as? CachedMovieService)
            #expect(cached === resolver.resolved((any MovieService).self) as? CachedMovieService)

            let apiClient = resolver.resolved(APIClient.self)
            #expect(identity(apiClient.transport) == identity(resolver.resolved((any Transport).self)))
            #expect(apiClient.interceptors.count == 2)
            #expect(identity(apiClient.interceptors[0]) == identity(resolver.resolved(AuthenticationInterceptor<ApiAuthenticator>.self)))
            #expect(apiClient.interceptors[1] is RetryPolicy, "authentication decides first, the retry policy second")
        }
    }

    @Test("the API movie service is transient: a fresh one each time, over the same shared transport")
    func makesTransientsFresh() async throws {
        try await withContainer(.stub(.success)) { app in
            let first = app.resolver.resolved((any MovieService).self, name: MoviesAssembly.api) as? ApiMovieService
            let second = app.resolver.resolved((any MovieService).self, name: MoviesAssembly.api) as? ApiMovieService
            #expect(first != nil && first !== second)
        }
    }

    @Test("two containers share nothing")
    func separatesContainers() async throws {
        let one = try container(.stub(.success)), other = try container(.stub(.success))
        #expect(identity(one.resolver.resolved((any ApiContext).self)) != identity(other.resolver.resolved((any ApiContext).self)))
    }

    @Test("the resolved service works end to end on the stub")
    func worksOnTheStub() async throws {
        try await withContainer(.stub(.success)) { app in
            let movies = try await app.movieService.topGrossingMovies(year: 2016)
            #expect(movies.first?.name == "Finding Dory")
        }
    }

    private func identity(_ object: Any) -> ObjectIdentifier {
        ObjectIdentifier(object as AnyObject)
    }
}

extension AppEnvironment: CustomTestStringConvertible {
    public var testDescription: String {
        switch self {
        case .embedded: "embedded"
        case .production: "production"
        case .custom: "custom URL"
        case let .stub(scenario): "stub:\(scenario.rawValue)"
        }
    }
}
