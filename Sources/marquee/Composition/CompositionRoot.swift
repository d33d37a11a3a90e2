import Foundation
import Logging
import MovieAPI
import MovieServer
import Movies
import Networking

/// The one place that decides which implementation backs each protocol, and that owns the
/// resources those implementations need (the HTTP client, the embedded server) for one command.
enum CompositionRoot {
    /// Builds the `MovieService` for `options`, runs `body` with it, and releases everything
    /// afterwards, whether `body` succeeded or not.
    static func withMovieService<Result>(
        _ options: ClientOptions,
        _ body: (any MovieService) async throws -> Result
    ) async throws -> Result {
        let (environment, embeddedServer) = try await resolve(options.environment)
        let context = InMemoryApiContext(environment: environment)
        let transport = AsyncHTTPClientTransport()
        let client = APIClient(baseURL: context.environment.baseURL, transport: transport)
        let service = ApiMovieService(client: client)

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
            let server = MovieServer(configuration: .init(host: "127.0.0.1", port: 0, catalog: try Catalog.reference(), logger: logger))
            return try await server.start()
        } catch {
            throw CLIError.cannotStartEmbeddedServer(reason: ErrorReporter.describe(error))
        }
    }
}
