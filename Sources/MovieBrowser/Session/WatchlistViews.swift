import MovieStore

/// Shows the watchlist again whenever asked, one read at a time, so that the views reach the
/// screen in the order they were read: a change written here, a sync and the live feed each ask,
/// and a view read before a change can never arrive after one read after it. Asks that come
/// while a read is under way are folded into one more read.
struct WatchlistViews: Sendable {
    private let requests: AsyncStream<Void>.Continuation
    private let reader: Task<Void, Never>

    /// `show` gets each view read; `failed`, each error of a read.
    init(watchlist: any BrowserWatchlist, show: @escaping @Sendable (WatchlistView) -> Void, failed: @escaping @Sendable (any Error) -> Void) {
        let (asked, requests) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        self.requests = requests
        reader = Task {
            for await _ in asked {
                do {
                    show(try await watchlist.view())
                } catch {
                    failed(error)
                }
            }
        }
    }

    /// Asks for the list as the store holds it now (or later).
    func refresh() {
        requests.yield()
    }

    func cancel() {
        requests.finish()
        reader.cancel()
    }

    /// Returns once the read under way, if any, has ended.
    func ended() async {
        await reader.value
    }
}
