import MovieAPI
import MovieBrowser
import MovieStore
import Movies

/// What `browse` hears from the server's live feed, in the browser's terms: a signed-in person
/// follows their watchlist and the catalogue; before anyone signs in, the catalogue alone (with
/// the application's token).
enum BrowserFollowing {
    static func watchlist(_ live: WatchlistLive<APIWatchlistService>, report: @escaping @Sendable (BrowserLive) async -> Void) async {
        await live.run { item in
            switch item {
            case let .status(.signedOut(reason)):
                await report(.status(LiveStatus.signedOut(reason).description))
                await report(.signedOut(reason))
            case let .status(status):
                await report(.status(status.description))
            case .changed, .refetched(afterReset: false):
                await report(.watchlistChanged)
            case .refetched(afterReset: true):
                await report(.watchlistChanged)
                await report(.catalogChanged)
            case .catalogChanged:
                await report(.catalogChanged)
            }
        }
    }

    static func catalogue(_ feed: any LiveFeed, report: @escaping @Sendable (BrowserLive) async -> Void) async {
        for await item in feed.updates(after: nil) {
            switch item {
            case let .status(status):
                await report(.status(status.description))
            case .update(.catalog), .update(.reset):
                await report(.catalogChanged)
            case .update(.ready), .update(.watchlist):
                break
            }
        }
    }
}
