import Foundation
import Logging
import MovieAPI
import MovieServer
import MovieStore
import Movies
import Networking

/// The one place that decides which implementation backs each protocol, and that owns the
/// resources those implementations need (the HTTP client, the embedded server) for one command.
enum CompositionRoot {
    /// Builds the movie service for `options` (the store around the API), runs `body` with it,
    /// and releases everything afterwards, whether `body` succeeded or not.
    static func withMovieService<Result>(
        _ options: ClientOptions,
        _ body: (CachedMovieService) async throws -> Result
    ) async throws -> Result {
        let store = try MovieStore(url: options.storeURL)
        let (environment, embeddedServer) = try await resolve(options.environment)
        let context = makeContext(for: environment)
        let transport = AsyncHTTPClientTransport()
        let api = ApiMovieService(client: authenticatedClient(context: context, transport: transport))
        let service = CachedMovieService(base: api, store: store, defaultPolicy: options.cachePolicy)

        let outcome: Swift.Result<Result, any Error>
        do {
            outcome = .success(try await body(service))
        } catch {
            outcome = .failure(error)
        }
        try? await transport.shutdown()
        try? await embeddedServer?.stop()
        return try outcome.get()
    }

    /// The context of an environment that is not embedded: its credential kept in the config folder.
    static func persistentContext(for option: EnvironmentOption) -> FileApiContext? {
        switch option {
        case .embedded: nil
        case .production: FileApiContext(environment: .production)
        case let .url(url): FileApiContext(environment: .custom(url))
        }
    }

    /// An `APIClient` whose requests carry the context's credential, renewed as needed.
    private static func authenticatedClient(context: any ApiContext, transport: any Transport) -> APIClient {
        let baseURL = context.environment.baseURL
        let tokenClient = APIClient(baseURL: baseURL, transport: transport)
        let authenticator: ApiAuthenticator =
            switch context.environment {
            case .production:
                ApiAuthenticator(authService: LegacyTokenAuthService(client: tokenClient), header: .custom(.init("AUTH_TOKEN")!))
            case .embedded, .custom:
                ApiAuthenticator(authService: apiAuthService(client: tokenClient))
            }
        let authentication = AuthenticationInterceptor(authenticator: authenticator, store: context)
        return APIClient(baseURL: baseURL, transport: transport, interceptors: [authentication])
    }

    private static func apiAuthService(client: APIClient) -> ApiAuthService {
        let secrets = ClientSecrets.fromEnvironment()
        return ApiAuthService(client: client, clientID: secrets.id, clientSecret: secrets.secret)
    }

    private static func makeContext(for environment: ApiEnvironment) -> any ApiContext {
        switch environment {
        case .embedded: InMemoryApiContext(environment: environment)
        case .production, .custom: FileApiContext(environment: environment)
        }
    }

    /// The API environment of `option`, starting the embedded server when it is the one asked for.
    private static func resolve(_ option: EnvironmentOption) async throws -> (ApiEnvironment, RunningServer?) {
        switch option {
        case .production:
            return (.production, nil)
        case let .url(url):
            return (.custom(url), nil)
        case .embedded:
            let server = try await startEmbeddedServer()
            return (.embedded(server.baseURL), server)
        }
    }

    private static func startEmbeddedServer() async throws -> RunningServer {
        var logger = Logger(label: "marquee.embedded-server")
        logger.logLevel = .warning
        do {
            let auth = AuthConfiguration(client: ClientSecrets.fromEnvironment())
            let configuration = MovieServer.Configuration(host: "127.0.0.1", port: 0, catalog: try Catalog.reference(), auth: auth, logger: logger)
            return try await MovieServer(configuration: configuration).start()
        } catch {
            throw CLIError.cannotStartEmbeddedServer(reason: ErrorReporter.describe(error))
        }
    }
}
