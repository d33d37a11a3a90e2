import Foundation
import Logging
import MovieAPI
import MovieBrowser
import MovieContract
import MovieServer
import MovieStore
import Movies
import Networking
import ReferenceAPI

/// The run's entry points: for a command's options, it opens what a container cannot make (the
/// store, which can fail to open, and the embedded server, which starts asynchronously), decides
/// who the run acts for (``SignInPolicy``), and hands them to ``AppContainer``, the composition
/// root, which picks every implementation and releases it all at the end.
enum CompositionRoot {
    /// Runs `body` with the movie service for `options`, and releases everything afterwards,
    /// whether `body` succeeded or not.
    static func withMovieService<Result>(
        _ options: ClientOptions,
        _ body: (AppMovieService) async throws -> Result
    ) async throws -> Result {
        try await withMovieService(options) { service, _ in try await body(service) }
    }

    /// Runs `body` with the movie service for `options` and the watchlist of the same API, and
    /// releases everything afterwards.
    static func withMovieService<Result>(
        _ options: ClientOptions,
        _ body: (AppMovieService, any BrowserWatchlist) async throws -> Result
    ) async throws -> Result {
        let selection = try options.api.selection
        let (store, standIn) = try openStoreOrStandIn(options)
        defer { standIn.map { try? FileManager.default.removeItem(at: $0.folder) } }
        let (environment, embeddedServer) = try await reach(selection)
        let policy = SignInPolicy(options, selection: selection)
        let home = policy.home
        // The catalogue needs no person: an account that is signed out keeps its list (shown,
        // never sent with anyone else's token) and the command goes on. Deliberately so when the
        // credentials file cannot be read either: reading the API's credential warns of it once.
        let chosen = try? policy.choice()
        let person = chosen?.signedIn == true ? chosen?.account : nil
        let key = WatchlistScope.key(api: environment.identity.key, account: chosen?.account)
        let sends = home == .server && options.cachePolicy != .cacheOnly && chosen?.signedIn == true
        // A store that stands in for one that cannot be used keeps nothing past this run: browse
        // shows why, and refuses every change rather than lose it at the end.
        func browse(_ service: AppMovieService, _ watchlist: any BrowserWatchlist) async throws -> Result {
            try await body(service, standIn.map { UnkeptStoreWatchlist(shown: watchlist, why: $0.why) } ?? watchlist)
        }
        return try await AppContainer.running(options, environment: environment, stubScenario: selection.stubScenario, store: store, embeddedServer: embeddedServer, person: person) { app in
            let sync = sends ? app.watchlistSync(store: store, api: key) : nil
            if let sync { await WatchlistDelivery.pushQuietly(sync) }
            let watchlist = AppWatchlist(
                store: store, api: key, home: home, sync: sync, feed: sync == nil ? nil : app.liveFeed(),
                shelf: sync == nil ? nil : app.shelfSync(store: store, api: key)
            )
            if home == .server, options.cachePolicy != .cacheOnly {
                // Signed in or not, a sign-in that ends while the screen is open is asked for again.
                let person = app.personSignIn
                let signedIn = chosen.flatMap { $0.signedIn ? (watchlist, account: $0.account) : nil }
                let elsewhere = SignInElsewhere(file: AppPaths.credentialsFile(), identity: selection.identity, accountOption: options.accountOption.account)
                let watchlistOf: SigningInWatchlist.Watchlist = { account in
                    person.watchlist(store: store, api: WatchlistScope.key(api: environment.identity.key, account: account), person: account)
                }
                return try await browse(app.movieService, SigningInWatchlist(signedIn: signedIn, catalogueFeed: app.catalogueFeed(), elsewhere: elsewhere, watchlistOf: watchlistOf) { show in
                    await person.signInFromBrowser(environment: environment, store: store, show: show)
                })
            }
            if home == .server, chosen?.signedIn != true {
                return try await browse(app.movieService, SignedOutWatchlist(shown: watchlist, reason: policy.browseReason(for: chosen)))
            }
            return try await browse(app.movieService, watchlist)
        }
    }

    /// Runs `body` with the watchlist of the API `options` name: its store, and the sync with its
    /// server when the server keeps watchlists and the network may be used. Nothing is started
    /// for an API whose watchlist lives here (the embedded server and the stub keep none between
    /// runs).
    ///
    /// A command that only shows the list (`showsOnly`) on a store that cannot be used shows the
    /// server's list without storing it, with one warning, as the movie commands do; a command
    /// that changes or sends the list fails instead, for this machine's store must keep a change
    /// until the server has it.
    static func withWatchlist<Result>(
        _ options: ClientOptions,
        batchSize: Int = WatchlistChangeRecord.batchLimit,
        showsOnly: Bool = false,
        _ body: (AppWatchlist) async throws -> Result
    ) async throws -> Result {
        let selection = try options.api.selection
        let store: MovieStore
        var throwaway: URL?
        if showsOnly {
            (store, throwaway) = try openStore(options)
        } else {
            let budget = try StoreBudgetChoice.budget()
            do { store = try MovieStore(url: options.api.storeURL, budget: budget) } catch {
                throw CLIError.failed("\(ErrorReporter.describe(error)) (nothing was changed: this machine's store must keep a change until the server has it)")
            }
        }
        defer { throwaway.map { try? FileManager.default.removeItem(at: $0) } }
        let policy = SignInPolicy(options, selection: selection)
        let home = policy.home
        let chosen: SignInPolicy.Choice?
        do {
            chosen = try policy.choice()
        } catch let error as CLIError where !showsOnly {
            throw CLIError.failed("\(error) (nothing was changed)")
        }
        if let chosen, !chosen.signedIn { throw policy.notSignedIn(chosen.account, changes: !showsOnly) }
        let person = chosen?.account
        let key = WatchlistScope.key(api: selection.identity.key, account: person)
        guard home == .server, !options.offline, let environment = APIEnvironment(selection.identity) else {
            if home == .server, person == nil, try await !keepsNoWatchlist(store, api: key) { throw policy.nobodySignedIn(changes: !showsOnly) }
            return try await body(AppWatchlist(store: store, api: key, home: home, sync: nil))
        }
        return try await AppContainer.running(options, environment: environment, stubScenario: nil, store: store, embeddedServer: nil, person: person) { app in
            let sync = app.watchlistSync(store: store, api: key, batchSize: batchSize)
            if person == nil {
                // Nobody is signed in: only a server that keeps no watchlist (the static site)
                // has a list this machine may keep without a person. Asked before anything is
                // recorded, so that nothing typed lands in a list no one owns.
                do {
                    try await sync.pull()
                    throw policy.nobodySignedIn(changes: !showsOnly)
                } catch let failure as WatchlistSyncFailure<NetworkError> {
                    guard case .noWatchlist = failure else { throw policy.nobodySignedIn(changes: !showsOnly) }
                }
            }
            return try await body(AppWatchlist(
                store: store, api: key, home: home, sync: sync, movies: app.movieService, feed: app.liveFeed(),
                shelf: app.shelfSync(store: store, api: key, batchSize: batchSize)
            ))
        }
    }

    /// Whether the store knows the API for one whose server keeps no watchlist.
    private static func keepsNoWatchlist(_ store: MovieStore, api: String) async throws -> Bool {
        do { return try await store.watchlist(api: api).serverHasNone } catch { throw CLIError.failed(ErrorReporter.describe(error)) }
    }

    /// The store `options` name. When it cannot be used — its folder is not writable, the disk
    /// is full, the file is damaged or of a newer version — and the policy may use the network,
    /// a throwaway store stands in for this run with one warning that says how to fix it, so the
    /// network's answer is still shown; the throwaway folder is returned for removal. The file
    /// itself is never changed. Under `--offline`, and for a file that is not a movie store at
    /// all (the option names the wrong file), it is an error.
    private static func openStore(_ options: ClientOptions) throws -> (MovieStore, URL?) {
        let (store, standIn) = try openStoreOrStandIn(options)
        return (store, standIn?.folder)
    }

    /// ``openStore(_:)``, with why the store it names could not be used when a throwaway one
    /// stands in for it.
    private static func openStoreOrStandIn(_ options: ClientOptions) throws -> (MovieStore, standIn: (folder: URL, why: String)?) {
        let budget = try StoreBudgetChoice.budget()
        do {
            return (try MovieStore(url: options.api.storeURL, budget: budget), nil)
        } catch {
            let unusable = CLIError.failed(ErrorReporter.describe(error))
            switch error {
            case .cannotOpen, .diskFull, .failed, .damaged, .newerVersion:
                guard options.cachePolicy != .cacheOnly else { throw unusable }
                let folder = FileManager.default.temporaryDirectory.appendingPathComponent("marquee-throwaway-\(UUID().uuidString)")
                guard let throwaway = try? MovieStore(url: folder.appendingPathComponent("movies.sqlite")) else { throw unusable }
                Logger(label: "marquee").warning("\(ErrorReporter.describe(error)); answers are shown but not stored this run")
                return (throwaway, (folder, ErrorReporter.describe(error).replacingOccurrences(of: "; nothing was changed", with: "")))
            case .notAStore:
                throw unusable
            }
        }
    }

    /// The context of an API whose credential is kept between runs (production, a custom
    /// server), for the auth commands; `nil` for one whose credential lasts a run.
    static func persistentContext(for identity: APIIdentity) -> FileAPIContext? {
        guard let environment = APIEnvironment(identity) else { return nil }
        return FileAPIContext(environment: environment, fileURL: AppPaths.credentialsFile(), holder: .application(ClientSecrets.fromEnvironment()))
    }

    /// Where the selected API is reached this run, starting the embedded server when it is the one asked for.
    private static func reach(_ selection: APISelection) async throws -> (APIEnvironment, RunningServer?) {
        if let fixed = APIEnvironment(selection.identity) { return (fixed, nil) }
        if selection.identity == .stub { return (APIEnvironment(.stub, at: ReferenceStubs.baseURL), nil) }
        let server = try await startEmbeddedServer()
        return (APIEnvironment(.embedded, at: server.baseURL), server)
    }

    private static func startEmbeddedServer() async throws -> RunningServer {
        var logger = Logger(label: "marquee.embedded-server")
        logger.logLevel = .warning
        do {
            let client = ClientSecrets.fromEnvironment()
            let auth = AuthConfiguration(client: ClientCredentials(id: client.id, secret: client.secret))
            let configuration = MovieServer.Configuration(host: "127.0.0.1", port: 0, storage: MemoryStorage(catalog: try Catalog.reference()), auth: auth, logger: logger)
            return try await MovieServer(configuration: configuration).start()
        } catch {
            throw CLIError.cannotStartEmbeddedServer(reason: ErrorReporter.describe(error))
        }
    }
}
