import MovieAPI
import MovieContract
import MovieServer
import MovieStore
import Movies
import Networking
import Swinject

/// The composition root, as the tutorial's Dip container was: the wired app for one run, a
/// Swinject container built from the feature assemblies, the only place that decides which
/// implementation backs each protocol, and the shutdown of what it opened.
final class AppContainer {
    let container: Container
    let settings: AppSettings
    private let closers = RunClosers()

    init(settings: AppSettings) {
        self.settings = settings
        container = Container()
        _ = Assembler([APIAssembly(settings: settings, closers: closers), MoviesAssembly(settings: settings)], container: container)
    }

    var resolver: any Resolver { container }

    /// The service the commands use.
    var movieService: AppMovieService { container.resolved() }

    /// The sync of the store's watchlist outbox with this API: the signed-in person's (their
    /// credential, their list, keyed by ``WatchlistScope``), or the client's own list when nobody is.
    func watchlistSync(store: MovieStore, api: String, batchSize: Int = WatchlistChangeRecord.batchLimit) -> AppWatchlistSync {
        let service: APIWatchlistService =
            if let stack = container.resolve(APIClientStack.self, name: APIAssembly.person) {
                APIWatchlistService(client: stack.client)
            } else {
                container.resolved()
            }
        return WatchlistSync(service: service, store: store, api: api, batchSize: batchSize)
    }

    /// The sync of the store's shelf outbox (ratings, …) with this API, on the signed-in person's
    /// credential; `nil` when nobody is signed in (only a person has a shelf).
    func shelfSync(store: MovieStore, api: String, batchSize: Int = WatchlistChangeRecord.batchLimit) -> AppShelfSync? {
        container.resolve(APIClientStack.self, name: APIAssembly.person).map { stack in
            ShelfSync(service: APIShelfService(client: stack.client), store: store, api: api, batchSize: batchSize)
        }
    }

    /// The signed-in person's live feed (`GET /api/events`) on their own credential; `nil` when
    /// nobody is signed in.
    func liveFeed() -> APILiveFeed? {
        container.resolve(APIClientStack.self, name: APIAssembly.person).map { APILiveFeed(client: $0.client).configured(Self.forAPersonWatching) }
    }

    /// The catalogue's live feed on the application's own token (no person's events).
    func catalogueFeed() -> APILiveFeed {
        APILiveFeed(client: container.resolved(APIClientStack.self).client).configured(Self.forAPersonWatching)
    }

    /// The longest wait between two tries of a feed that a person watches (`--follow`, `browse`):
    /// back within a few seconds of its server, where a minute's wait read as a screen that hung.
    static let longestWaitForAPerson: Duration = .seconds(5)

    @Sendable private static func forAPersonWatching(_ stream: inout EventStreamClient) {
        stream.longestWait = longestWaitForAPerson
    }

    /// What signs a person in from `browse` and syncs their list afterwards, made of this run's
    /// transport and settings.
    var personSignIn: PersonSignIn { PersonSignIn(settings: settings, transport: container.resolved()) }

    /// Closes what the run opened: the HTTP client's connections, if one was made.
    func shutdown() async {
        await closers.closeAll()
    }

    /// Runs `body` with the container for `environment` and `options`, then shuts the container
    /// (and the embedded server, when there is one) down, whether `body` succeeded or not.
    static func running<Result>(
        _ options: ClientOptions, environment: APIEnvironment, stubScenario: StubScenario?, store: MovieStore, embeddedServer: RunningServer?,
        person: String? = nil,
        _ body: (AppContainer) async throws -> Result
    ) async throws -> Result {
        if options.curl { CurlNotes.print(for: environment) }
        var settings = AppSettings(environment: environment, stubScenario: stubScenario, store: store, defaultPolicy: options.cachePolicy)
        settings.person = person
        settings.chosenTimeout = options.timeout.map { .seconds($0) }
        let app = Self(settings: settings)
        let outcome: Swift.Result<Result, any Error>
        do {
            outcome = .success(try await body(app))
        } catch {
            outcome = .failure(error)
        }
        await app.shutdown()
        await store.finishRun()
        try? await embeddedServer?.stop()
        return try outcome.get()
    }
}
