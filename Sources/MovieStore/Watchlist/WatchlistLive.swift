import Movies

/// Keeps one watchlist scope of the store in step with the server's live feed: resumes after the
/// store's cursor, applies each watchlist event once, and pulls the whole list again when the
/// stream starts with no cursor or says `reset`. What happened is told to `report`.
public struct WatchlistLive<Service: WatchlistService>: Sendable {
    /// What a running feed did.
    public enum Report: Sendable, Hashable {
        case status(LiveStatus)
        /// A change to the known list, made by this process or another one on the store (each
        /// change is told once to every process that follows the list).
        case changed(WatchlistChange)
        /// The whole list was fetched again: at the start of a stream with no cursor, or after the
        /// server's `reset` (`afterReset`: events were lost, what else is shown is stale too).
        case refetched(afterReset: Bool)
        /// The catalogue changed: what is shown of it may be stale.
        case catalogChanged(version: Int64)
        /// A record of the shelf beyond the watchlist (a rating, a viewing, a list or its movie)
        /// changed on the server and is kept in the store now.
        case shelfChanged(kind: String)
    }

    /// How often the store's change log is read besides after each update of this process's feed:
    /// what another process applied shows here within this.
    static var logInterval: Duration { .milliseconds(500) }

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

    /// Runs until the task is cancelled or the feed stops for good. Reports come one at a time,
    /// in order: the feed's status and refetches, and every change of the store's log from the
    /// moment the run began. Each time the stream is (re)opened, the changes pending here are sent.
    /// The feed is read no faster than its updates are reported: the next update is asked for
    /// once the last one's changes were told, so a slow reader of the reports holds the feed back
    /// (and the server with it) instead of a queue growing here.
    public func run(report: @escaping @Sendable (Report) async -> Void) async {
        let start = try? await store.liveCursor(api: api)
        var position = (try? await store.watchlistLogPosition(api: api)) ?? 0
        let (signals, signal) = AsyncStream<Signal>.makeStream()
        let (logsRead, logRead) = AsyncStream<Void>.makeStream()
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                while !Task.isCancelled {
                    try? await Task.sleep(for: Self.logInterval)
                    signal.yield(.tick)
                }
            }
            group.addTask {
                var inStep = start != nil
                var told = logsRead.makeAsyncIterator()
                updates: for await item in feed.updates(after: start) {
                    switch item {
                    case let .status(status):
                        signal.yield(.report(.status(status)))
                        // Connected (again): what was changed here meanwhile goes now, unasked.
                        if status == .live { _ = try? await sync.push(waiting: false) }
                    case let .update(update):
                        signal.yield(.applying)
                        inStep = await apply(update, inStep: inStep) { signal.yield(.report($0)) }
                        signal.yield(.readLog)
                        guard await told.next() != nil else { break updates }
                    }
                }
                signal.finish()
            }
            // While an update is applied, the ticks wait for it: what it logs is told after what
            // it reports (a refetch before the changes it brought).
            var applying = false
            for await next in signals {
                switch next {
                case let .report(item):
                    await report(item)
                case .applying:
                    applying = true
                case .tick where applying:
                    continue
                case .readLog, .tick:
                    applying = false
                    if let changes = try? await store.watchlistChanges(after: position, api: api) {
                        for change in changes { await report(.changed(change)) }
                        position = changes.last?.sequence ?? position
                    }
                    if case .readLog = next { logRead.yield() }
                }
            }
            group.cancelAll()
        }
    }

    private enum Signal: Sendable {
        case report(Report)
        /// An update of the feed is being applied to the store.
        case applying
        /// The update was applied: the log is read, and the feed told so (it waits for that).
        case readLog
        /// Time to read the log for what other processes applied.
        case tick
    }

    /// Applies `update` to the store; whether the store is in step with the stream afterwards.
    /// Out of step (a stream that starts with no cursor, a `reset`, or a pull that failed), the
    /// list is fetched whole first, and again at each update until that succeeds. The changes it
    /// makes are told through the store's log, not here.
    private func apply(_ update: LiveUpdate, inStep: Bool, report: (Report) -> Void) async -> Bool {
        let isReset = if case .reset = update { true } else { false }
        guard inStep, !isReset else {
            do {
                try await sync.pull()
                try await store.applyLiveUpdate(update, api: api)
            } catch {
                report(.status(.behind("the list could not be fetched: \(error)")))
                return false
            }
            report(.refetched(afterReset: isReset))
            if case let .catalog(version, _) = update { report(.catalogChanged(version: version)) }
            return true
        }
        do {
            switch update {
            case .watchlist:
                _ = try await store.applyLiveUpdate(update, api: api)
            case let .shelf(change, _):
                _ = try await store.applyLiveUpdate(update, api: api)
                report(.shelfChanged(kind: change.kind))
            case let .catalog(version, _):
                _ = try await store.applyLiveUpdate(update, api: api)
                report(.catalogChanged(version: version))
            case .ready, .reset:
                break
            }
        } catch {
            report(.status(.behind("a change could not be written to this machine's store (\(error)); the list is fetched again at the next update")))
            return false
        }
        return true
    }
}
