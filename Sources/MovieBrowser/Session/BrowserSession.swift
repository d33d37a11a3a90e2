import Foundation
import MovieContract
import MovieStore
import Movies
import TextFormatting

/// Why a ``BrowserSession`` ended.
public enum BrowserEnding: Sendable, Equatable {
    case quit
    case signal(Int32)
    case hangUp
}

/// Runs the browser: feeds keys and answers into a ``BrowserState`` and starts and cancels
/// what its effects ask for. Each segment runs the chosen ``CachePolicy`` (stored list at once,
/// then the network's) and observes the stored list, so that a newer answer stored by another
/// process redraws the screen without a key being pressed.
///
/// Everything the session touches comes in through its parameters, so a test drives it with
/// a scripted service and a stream of keys, and reads what it drew.
public final class BrowserSession<Service: OfflineMovieService>: Sendable {
    public typealias Ending = BrowserEnding

    public typealias Failure = CacheFailure<Service.NetworkFailure>

    private let service: Service
    private let policy: CachePolicy
    private let describe: @Sendable (Failure) -> String
    private let now: @Sendable () -> Date
    private let tick: Duration
    private let watchlist: (any BrowserWatchlist)?
    private let describeError: @Sendable (any Error) -> String

    /// `describe` turns a failure into the words of the status line (a network failure shown
    /// beside a stored answer comes as ``CacheFailure/network(_:)``); `tick` is how often the
    /// ages on screen ("fetched 3 minutes ago") are redrawn; `describeError` words the failures of
    /// the watchlist.
    public init(
        service: Service,
        policy: CachePolicy,
        describe: @escaping @Sendable (Failure) -> String,
        now: @escaping @Sendable () -> Date = { Date() },
        tick: Duration = .seconds(1),
        watchlist: (any BrowserWatchlist)? = nil,
        describeError: @escaping @Sendable (any Error) -> String = BrowserWords.of
    ) {
        self.watchlist = watchlist
        self.describeError = describeError
        self.service = service
        self.policy = policy
        self.describe = describe
        self.now = now
        self.tick = tick
    }

    private enum Event: Sendable {
        case input(TerminalInput)
        case update(BrowserUpdate)
        case tick
        case catalogChanged
        /// A person signed in: the feed is followed again, as theirs.
        case signedIn
        /// The person's sign-in ended: the watchlist asks for a sign-in again.
        case signedOut
        /// A person signed in elsewhere: their list is shown and synced, their feed followed.
        case signedInElsewhere(account: String)
    }

    /// Runs until `q`, Ctrl-C, a stop signal or the end of input. `visibleRows` is asked before
    /// each key (the terminal may have been resized); `draw` gets every new state.
    public func run(
        _ initial: BrowserState,
        inputs: AsyncStream<TerminalInput>,
        visibleRows: @escaping () -> Int,
        draw: (BrowserState) -> Void
    ) async -> Ending {
        var pins = ShownPins(service: service)
        let ending = await run(initial, inputs: inputs, visibleRows: visibleRows, pins: &pins, draw: draw)
        await pins.end()
        return ending
    }

    private func run(
        _ initial: BrowserState,
        inputs: AsyncStream<TerminalInput>,
        visibleRows: @escaping () -> Int,
        pins: inout ShownPins<Service>,
        draw: (BrowserState) -> Void
    ) async -> Ending {
        let (events, sink) = AsyncStream<Event>.makeStream()
        var tasks = Tasks()
        tasks.background = [
            Task { for await input in inputs { sink.yield(.input(input)) } },
            Task { [tick] in
                while !Task.isCancelled {
                    try? await Task.sleep(for: tick)
                    sink.yield(.tick)
                }
            },
            Task { [service] in try? await service.relayWritesOfOtherProcesses() },
        ]
        tasks.views = watchlist.map { watchlist in
            WatchlistViews(watchlist: watchlist) { sink.yield(.update(.watchlistShown($0))) } failed: { [describeError] error in
                sink.yield(.update(.watchlistSynced(status: "the watchlist could not be read: \(TerminalText.safe(describeError(error)))")))
            }
        }
        tasks.follow = follow(sink: sink, views: tasks.views)
        let ending = await loop(initial, events: events, sink: sink, visibleRows: visibleRows, tasks: &tasks, pins: &pins, draw: draw)
        tasks.cancelAll()
        // What the feed was applying ends before the store and the transport are let go.
        await tasks.follow?.value
        await tasks.views?.ended()
        return ending
    }

    private func loop(
        _ initial: BrowserState,
        events: AsyncStream<Event>,
        sink: AsyncStream<Event>.Continuation,
        visibleRows: @escaping () -> Int,
        tasks: inout Tasks,
        pins: inout ShownPins<Service>,
        draw: (BrowserState) -> Void
    ) async -> Ending {
        var state = initial
        perform(state.start(), state: state, tasks: &tasks, sink: sink)
        pins.keep(state.shown)
        draw(state)
        for await event in events {
            switch event {
            case let .input(.keys(keys)):
                for key in keys {
                    let effects = state.handle(key, visibleRows: visibleRows())
                    if effects.contains(.quit) { return .quit }
                    perform(effects, state: state, tasks: &tasks, sink: sink)
                }
            case .input(.resize), .tick:
                break
            case let .input(.signal(number)):
                return .signal(number)
            case .input(.hangUp):
                return .hangUp
            case let .update(update):
                state.apply(update)
            case .catalogChanged:
                // Each reload cancels the one before it: a burst of events (an import's, or old
                // ones replayed after a resume) costs one request.
                perform(state.catalogChanged(), state: state, tasks: &tasks, sink: sink, policy: refreshPolicy)
            case .signedIn:
                tasks.follow?.cancel()
                state.apply(.liveStatus(nil))
                tasks.follow = follow(sink: sink, views: tasks.views)
            case .signedOut:
                let forgotten = Task { [watchlist] () -> ContinuousClock.Instant? in
                    if let watchlist { await watchlist.signedOut() }
                    return nil
                }
                // The catalogue's feed goes on with the application's token once the person is forgotten.
                tasks.follow?.cancel()
                state.apply(.liveStatus(nil))
                tasks.follow = follow(after: forgotten, sink: sink, views: tasks.views)
                let load = watchlistWork(after: forgotten, change: nil, views: tasks.views, sink: sink)
                tasks.watchlist = load.write
                tasks.background.append(load.sync)
            case let .signedInElsewhere(account):
                tasks.follow?.cancel()
                state.apply(.liveStatus(nil))
                tasks.follow = follow(sink: sink, views: tasks.views)
                state.apply(.watchlistSignIn(nil))
                state.apply(.watchlistSynced(status: "signed in as \(TerminalText.safe(account)) in another terminal"))
                perform([.syncWatchlist], state: state, tasks: &tasks, sink: sink)
            }
            pins.keep(state.shown)
            draw(state)
        }
        return .hangUp
    }

    /// The policy of a reload the catalogue's feed asked for: a stored answer young enough for
    /// `cacheElseNetwork` is what changed, so the network is asked.
    private var refreshPolicy: CachePolicy {
        if case .cacheElseNetwork = policy { return .cacheThenNetwork }
        return policy
    }

    /// The tasks the effects started, so that the next effect can cancel them.
    private struct Tasks {
        var list: Task<Void, Never>?
        var observation: Task<Void, Never>?
        var movie: Task<Void, Never>?
        var search: Task<Void, Never>?
        /// The last watchlist change asked for: the next one is written after it. Its value is
        /// when the last sign-in of the chain ended, if one did.
        var watchlist: Task<ContinuousClock.Instant?, Never>?
        /// The live feed followed while the screen is open.
        var follow: Task<Void, Never>?
        var background: [Task<Void, Never>] = []
        /// Every read of the watchlist to show.
        var views: WatchlistViews?

        func cancelAll() {
            ([list, observation, movie, search, follow].compactMap { $0 } + background).forEach { $0.cancel() }
            watchlist?.cancel()
            views?.cancel()
        }
    }

    private func perform(
        _ effects: [BrowserEffect], state: BrowserState, tasks: inout Tasks, sink: AsyncStream<Event>.Continuation, policy: CachePolicy? = nil
    ) {
        let policy = policy ?? self.policy
        for effect in effects {
            switch effect {
            case let .loadList(tab, year):
                tasks.list?.cancel()
                tasks.observation?.cancel()
                tasks.list = loadList(tab, year: year, policy: policy, sink: sink)
                tasks.observation = observeList(tab, year: year, sink: sink)
            case .cancelList:
                tasks.list?.cancel()
                tasks.observation?.cancel()
            case let .loadMovie(id):
                tasks.movie?.cancel()
                tasks.movie = loadMovie(id: id, policy: policy, sink: sink)
            case .cancelMovie:
                tasks.movie?.cancel()
            case let .search(text):
                tasks.search?.cancel()
                tasks.search = search(text, cursor: nil, policy: policy, sink: sink)
            case let .searchMore(text, cursor):
                tasks.search?.cancel()
                tasks.search = search(text, cursor: cursor, policy: policy, sink: sink)
            case .cancelSearch:
                tasks.search?.cancel()
            case .loadWatchlist, .syncWatchlist:
                let work = watchlistWork(after: tasks.watchlist, change: nil, views: tasks.views, sink: sink)
                tasks.watchlist = work.write
                tasks.background.append(work.sync)
            case let .changeWatchlist(movieID, add):
                let work = watchlistWork(after: tasks.watchlist, change: (movieID, add), views: tasks.views, sink: sink)
                tasks.watchlist = work.write
                tasks.background.append(work.sync)
            case .quit:
                break
            }
        }
    }

    /// Writes `change` (after the changes asked for before it, so they reach the outbox in the
    /// order made) and shows the list; returns that task and the sync that follows it. A change
    /// asked for before a sign-in ended is not made: it was decided on no one's list, and would
    /// overwrite what the person has (their note).
    private func watchlistWork(
        after previous: Task<ContinuousClock.Instant?, Never>?, change: (movieID: Int, add: Bool)?, views: WatchlistViews?, sink: AsyncStream<Event>.Continuation
    ) -> (write: Task<ContinuousClock.Instant?, Never>, sync: Task<Void, Never>) {
        let asked = ContinuousClock.now
        let write = Task { [watchlist, describeError] () -> ContinuousClock.Instant? in
            var signedInAt = await previous?.value ?? nil
            guard let watchlist else { return signedInAt }
            switch await watchlist.signInIfNeeded({ sink.yield(.update(.watchlistSignIn($0))) }) {
            case .notNeeded:
                break
            case let .signedIn(account):
                signedInAt = .now
                sink.yield(.signedIn)
                sink.yield(.update(.watchlistSignIn(nil)))
                sink.yield(.update(.watchlistSynced(status: "signed in as \(TerminalText.safe(account))")))
            case let .failed(reason):
                sink.yield(.update(.watchlistSignIn(.ended(TerminalText.safe(reason)))))
                return signedInAt
            }
            if change != nil, let signedInAt, signedInAt > asked {
                sink.yield(.update(.watchlistRefused("signed in: press w again to change the watchlist (nothing was changed)")))
                views?.refresh()
                return signedInAt
            }
            do {
                if let change { try await watchlist.change(movieID: change.movieID, add: change.add) }
                views?.refresh()
            } catch {
                sink.yield(.update(.watchlistRefused("the watchlist was not changed: \(TerminalText.safe(describeError(error)))")))
            }
            return signedInAt
        }
        let sync = Task { [watchlist] in
            _ = await write.value
            guard let watchlist else {
                sink.yield(.update(.watchlistSynced(status: "this API has no watchlist")))
                return
            }
            let status = await watchlist.sync()
            views?.refresh()
            sink.yield(.update(.watchlistSynced(status: status.map(TerminalText.safe))))
        }
        return (write, sync)
    }

    /// Follows the watchlist's live feed: its state goes to the status line, a change elsewhere
    /// shows the list again, and a new catalogue asks again for what is on screen.
    private func follow(after previous: Task<ContinuousClock.Instant?, Never>? = nil, sink: AsyncStream<Event>.Continuation, views: WatchlistViews?) -> Task<Void, Never> {
        Task { [watchlist] in
            _ = await previous?.value
            guard let watchlist, !Task.isCancelled else { return }
            await watchlist.follow { live in
                // A feed replaced after a sign-in says nothing more, even what it had in hand.
                guard !Task.isCancelled else { return }
                switch live {
                case let .status(status):
                    sink.yield(.update(.liveStatus(TerminalText.safe(status))))
                case .watchlistChanged:
                    views?.refresh()
                case .catalogChanged:
                    sink.yield(.catalogChanged)
                case .signedOut:
                    sink.yield(.signedOut)
                case let .signedIn(account):
                    sink.yield(.signedInElsewhere(account: account))
                }
            }
        }
    }

    private func loadList(_ tab: BrowserTab, year: Int, policy: CachePolicy, sink: AsyncStream<Event>.Continuation) -> Task<Void, Never> {
        guard let list = tab.list else { return Task {} }
        return Task { [service, describe] in
            do throws(Failure) {
                let answer = try await service.movies(list, year: year, policy: policy) { snapshot in
                    guard !Task.isCancelled else { return }
                    sink.yield(.update(.listAnswer(tab, year: year, movies: snapshot.value, answer: Self.answer(of: snapshot, describe: describe))))
                }
                // A load replaced meanwhile says nothing more: its answer or its end would mark the new one done.
                guard !Task.isCancelled else { return }
                sink.yield(.update(.listFinished(tab, year: year, failure: Self.failure(carriedBy: answer, describe: describe))))
            } catch {
                guard !Task.isCancelled, !error.isCancellation else { return }
                sink.yield(.update(.listFinished(tab, year: year, failure: TerminalText.safe(describe(error)))))
            }
        }
    }

    private func observeList(_ tab: BrowserTab, year: Int, sink: AsyncStream<Event>.Continuation) -> Task<Void, Never> {
        guard let list = tab.list else { return Task {} }
        let stored = service.observe(list, year: year)
        return Task {
            do {
                for try await value in stored {
                    guard let value else { continue }
                    sink.yield(.update(.listStored(tab, year: year, movies: value.value, fetchedAt: value.fetchedAt)))
                }
            } catch {
                // The table keeps what it shows; the load's status line reports store failures.
            }
        }
    }

    private func loadMovie(id: Int, policy: CachePolicy, sink: AsyncStream<Event>.Continuation) -> Task<Void, Never> {
        Task { [service, describe] in
            do throws(Failure) {
                let answer = try await service.movie(id: id, policy: policy) { snapshot in
                    guard !Task.isCancelled else { return }
                    sink.yield(.update(.movieAnswer(id: id, movie: snapshot.value, answer: Self.answer(of: snapshot, describe: describe))))
                }
                guard !Task.isCancelled else { return }
                sink.yield(.update(.movieFinished(id: id, failure: Self.failure(carriedBy: answer, describe: describe))))
            } catch {
                guard !Task.isCancelled, !error.isCancellation else { return }
                sink.yield(.update(.movieFinished(id: id, failure: TerminalText.safe(describe(error)))))
            }
        }
    }

    /// How long typing must pause before the words are searched for on the network. Offline the
    /// store answers in milliseconds, so every key is searched at once.
    static var searchPause: Duration { .milliseconds(150) }

    /// Searches for `text` once typing has paused (a later key cancels this task first), or asks
    /// for the page after `cursor` at once; offline, at once.
    private func search(_ text: String, cursor: String?, policy: CachePolicy, sink: AsyncStream<Event>.Continuation) -> Task<Void, Never> {
        Task { [service, describe] in
            if cursor == nil, policy != .cacheOnly {
                do { try await Task.sleep(for: Self.searchPause) } catch { return }
            }
            let line = SearchLine(text)
            if let problem = line.problem {
                sink.yield(.update(.searchFailed(text: text, failure: TerminalText.safe(problem))))
                return
            }
            let request = line.request(cursor: cursor)
            do throws(Failure) {
                let answer = try await service.search(request, all: false, policy: policy == .cacheOnly ? .cacheOnly : .networkElseCache)
                sink.yield(.update(.searchAnswer(
                    text: text, movies: answer.value.movies, next: answer.value.next,
                    answer: Self.answer(of: answer, describe: describe), appending: cursor != nil
                )))
            } catch {
                guard !Task.isCancelled, !error.isCancellation else { return }
                sink.yield(.update(.searchFailed(text: text, failure: TerminalText.safe(describe(error)))))
            }
        }
    }

    /// The words of the network failure an answer carries (a stored answer shown because the network failed).
    private static func failure<Value>(carriedBy answer: MovieSnapshot<Value, Service.NetworkFailure>, describe: (Failure) -> String) -> String? {
        answer.networkError.map { TerminalText.safe(describe(.network($0))) }
    }

    private static func answer<Value>(of snapshot: MovieSnapshot<Value, Service.NetworkFailure>, describe: (Failure) -> String) -> Answer {
        let source: Answer.Source = switch snapshot.source {
        case .store: .store
        case .network: .network
        case let .derived(records): .derived(records: records)
        case let .searched(records): .searched(records: records)
        }
        return Answer(source: source, fetchedAt: snapshot.fetchedAt, failure: snapshot.networkError.map { TerminalText.safe(describe(.network($0))) })
    }
}
