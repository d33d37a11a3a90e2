import Movies

/// Keeps one watchlist scope of the store in step with the server's live feed: resumes after the
/// store's cursor, applies each watchlist event once, and pulls the whole list again when the
/// stream starts with no cursor or says `reset`. What happened is told to `report`.
public struct WatchlistLive<Service: WatchlistService>: Sendable {
    /// What a running feed did.
    public enum Report: Sendable, Hashable {
        case status(LiveStatus)
        /// A change from another device was applied.
        case changed(WatchlistItem, removed: Bool)
        /// The whole list was fetched again: at the start of a stream with no cursor, or after the
        /// server's `reset` (`afterReset`: events were lost, what else is shown is stale too).
        case refetched(afterReset: Bool)
        /// The catalogue changed: what is shown of it may be stale.
        case catalogChanged(version: Int64)
    }

    let store: MovieStore
    let api: MovieStore.APIKey
    let sync: WatchlistSync<Service>
    let feed: any LiveFeed

    public init(store: MovieStore, api: MovieStore.APIKey, sync: WatchlistSync<Service>, feed: any LiveFeed) {
        self.store = store
        self.api = api
        self.sync = sync
        self.feed = feed
    }

    /// Runs until the task is cancelled or the feed stops for good.
    public func run(report: @Sendable (Report) async -> Void) async {
        let start = try? await store.liveCursor(api: api)
        var inStep = start != nil
        for await item in feed.updates(after: start) {
            switch item {
            case let .status(status):
                await report(.status(status))
            case let .update(update):
                inStep = await apply(update, inStep: inStep, report: report)
            }
        }
    }

    /// Applies `update`; whether the store is in step with the stream afterwards. Out of step
    /// (a stream that starts with no cursor, a `reset`, or a pull that failed), the list is
    /// fetched whole first, and again at each update until that succeeds.
    private func apply(_ update: LiveUpdate, inStep: Bool, report: @Sendable (Report) async -> Void) async -> Bool {
        let isReset = if case .reset = update { true } else { false }
        guard inStep, !isReset else {
            do {
                try await sync.pull()
                try await store.applyLiveUpdate(update, api: api)
            } catch {
                await report(.status(.behind("the list could not be fetched: \(error)")))
                return false
            }
            await report(.refetched(afterReset: isReset))
            if case let .catalog(version, _) = update { await report(.catalogChanged(version: version)) }
            return true
        }
        switch update {
        case let .watchlist(item, removed, _):
            if (try? await store.applyLiveUpdate(update, api: api)) == true { await report(.changed(item, removed: removed)) }
        case let .catalog(version, _):
            _ = try? await store.applyLiveUpdate(update, api: api)
            await report(.catalogChanged(version: version))
        case .ready, .reset:
            break
        }
        return true
    }
}
