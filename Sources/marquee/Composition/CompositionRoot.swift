import Foundation
import Logging
import MovieAPI
import MovieServer
import MovieStore
import Movies

/// The one place that decides which implementation backs each protocol. It prepares what
/// cannot be made inside the container (the embedded server, which starts asynchronously, and
/// the store, which can fail to open), wires the rest with Swinject, and releases it all.
enum CompositionRoot {
    /// Runs `body` with the movie service for `options`, and releases everything afterwards,
    /// whether `body` succeeded or not.
    static func withMovieService<Result>(
        _ options: ClientOptions,
        _ body: (any OfflineMovieService) async throws -> Result
    ) async throws -> Result {
        let store = try MovieStore(url: options.storeURL)
        let (environment, embeddedServer) = try await resolve(options.environment)
        var settings = AppSettings(environment: environment, store: store, defaultPolicy: options.cachePolicy)
        if case .stub = environment {
            settings.requestTimeout = .seconds(2)
            settings.callDeadline = .seconds(3)
        }
        let app = AppContainer(settings: settings)

        let outcome: Swift.Result<Result, any Error>
        do {
            outcome = .success(try await body(app.movieService))
        } catch {
            outcome = .failure(error)
        }
        await app.shutdown()
        try? await embeddedServer?.stop()
        return try outcome.get()
    }

    /// The context of an environment whose credential is kept between runs, for the auth commands.
    static func persistentContext(for option: EnvironmentOption) -> FileApiContext? {
        switch option {
        case .embedded, .stub: nil
        case .production: FileApiContext(environment: .production)
        case let .url(url): FileApiContext(environment: .custom(url))
        }
    }

    /// The environment of `option`, starting the embedded server when it is the one asked for.
    private static func resolve(_ option: EnvironmentOption) async throws -> (AppEnvironment, RunningServer?) {
        switch option {
        case .production:
            return (.production, nil)
        case let .url(url):
            return (.custom(url), nil)
        case let .stub(scenario):
            return (.stub(scenario), nil)
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
