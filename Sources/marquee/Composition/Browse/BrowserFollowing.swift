import MovieAPI
import MovieBrowser
import MovieStore
import Movies
import Networking
import NIOConcurrencyHelpers

/// What `browse` hears from the server's live feed, in the browser's terms: a signed-in person
/// follows their watchlist and the catalogue; before anyone signs in, the catalogue alone (with
/// the application's token).
enum BrowserFollowing {
    /// The person's feed. When a live stream breaks, their sign-in is asked after at once (a pull
    /// of the list): the server ends a signed-out person's stream, and the feed would only learn
    /// why after its wait to reconnect.
    static func watchlist(
        _ live: WatchlistLive<APIWatchlistService>, sync: AppWatchlistSync, shelf: AppShelfSync?, report: @escaping @Sendable (BrowserLive) async -> Void
    ) async {
        let wasLive = NIOLockedValueBox(false)
        await live.run { item in
            switch item {
            case let .status(.signedOut(reason)):
                await report(.status(LiveStatus.signedOut(reason).description))
                await report(.signedOut(reason))
            case let .status(status):
                await report(.status(status.description))
                let broke = wasLive.withLockedValue { wasLive in
                    defer { wasLive = status == .live }
                    return wasLive && status != .live
                }
                if broke, let reason = await signedOut(sync) {
                    await report(.status(LiveStatus.signedOut(reason).description))
                    await report(.signedOut(reason))
                }
            case .changed, .shelfChanged:
                await report(.watchlistChanged)
            case let .refetched(afterReset):
                // The shelf is fetched again with the list: its events were lost with the list's.
                if let shelf { _ = await ShelfSyncing.syncQuietly(shelf) }
                await report(.watchlistChanged)
                if afterReset { await report(.catalogChanged) }
            case .catalogChanged:
                await report(.catalogChanged)
            }
        }
    }

    /// Why the person's sign-in has ended, when the server says so to a pull of their list.
    private static func signedOut(_ sync: AppWatchlistSync) async -> String? {
        do {
            try await sync.pull()
            return nil
        } catch let .network(error, _) {
            guard case let .authenticationFailed(reason) = error else { return nil }
            return SignedOut.sentence(in: reason) ?? "the sign-in has ended; run 'marquee login' to sign in again"
        } catch {
            return nil
        }
    }

    static func catalogue(_ feed: any LiveFeed, report: @escaping @Sendable (BrowserLive) async -> Void) async {
        for await item in feed.updates(after: nil) {
            switch item {
            case let .status(status):
                await report(.status(status.description))
            case .update(.catalog), .update(.reset):
                await report(.catalogChanged)
            case .update(.ready), .update(.watchlist), .update(.shelf):
                break
            }
        }
    }
}
