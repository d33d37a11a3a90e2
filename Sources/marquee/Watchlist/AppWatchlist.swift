import MovieAPI
import MovieBrowser
import MovieStore

/// The sync of the app's store with the movie API's watchlist.
typealias AppWatchlistSync = WatchlistSync<APIWatchlistService>

/// The sync of the app's store with the movie API's shelf (ratings, …).
typealias AppShelfSync = ShelfSync<APIShelfService>

/// What a watchlist command works with: the store, the API's key in it, where the list is kept,
/// and the sync with the server when there is one to reach this run.
struct AppWatchlist: Sendable {
    let store: MovieStore
    let api: String
    let home: WatchlistHome
    let sync: AppWatchlistSync?
    /// The API's movies through the store, to fetch the titles the list lacks; `nil` when the
    /// network is not to be used.
    var movies: AppMovieService? = nil
    /// The person's live feed; `nil` offline, or with nobody signed in.
    var feed: APILiveFeed? = nil
    /// The sync of the person's shelf; `nil` offline, or with nobody signed in.
    var shelf: AppShelfSync? = nil
}

/// Where an API's watchlist is kept.
enum WatchlistHome: Equatable, Sendable {
    /// On its server, with this machine's changes on the way (a `marquee serve` server, production).
    case server
    /// On this machine only: the API keeps none between runs (the embedded server, the stub).
    case thisMachine(reason: String)

    init(_ selection: APISelection) {
        switch selection.identity {
        case .embedded: self = .thisMachine(reason: "the embedded API keeps no watchlist between runs")
        case .stub: self = .thisMachine(reason: "the stub API keeps no watchlist")
        case .production, .custom: self = .server
        }
    }
}

extension AppWatchlist: BrowserWatchlist {
    func view() async throws -> WatchlistView {
        try await store.watchlistAndShelf(api: api)
    }

    func change(movieID: Int, add: Bool) async throws {
        _ = try await store.recordWatchlistChange(movieID: movieID, action: add ? .add : .remove, api: api)
    }

    func sync() async -> String? {
        if case let .thisMachine(reason) = home { return "kept on this machine: \(reason)" }
        guard let sync else { return "offline: pending changes are sent later" }
        do {
            _ = try await sync.sync()
            guard let shelf, let problem = await ShelfSyncing.syncQuietly(shelf) else { return nil }
            return "the shelf not synced: \(problem)"
        } catch .noWatchlist {
            return "kept on this machine: the server keeps no watchlist"
        } catch {
            return "not synced: \(WatchlistText.describe(error))"
        }
    }

    func follow(_ report: @escaping @Sendable (BrowserLive) async -> Void) async {
        guard home == .server, let sync, let feed else { return }
        await BrowserFollowing.watchlist(WatchlistLive(store: store, api: api, sync: sync, feed: feed), sync: sync, shelf: shelf, report: report)
    }
}
