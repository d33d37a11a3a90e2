import Foundation
import Movies
import MovieStore
import TextFormatting

/// Runs the browser: feeds keys and answers into a ``BrowserState`` and starts and cancels
/// what its effects ask for. Each segment runs the chosen ``CachePolicy`` (stored list at once,
/// then the network's) and observes the stored list, so that a newer answer stored by another
/// process redraws the screen without a key being pressed.
///
/// Everything the session touches comes in through its parameters, so a test drives it with
/// a scripted service and a stream of keys, and reads what it drew.
public final class BrowserSession: Sendable {
    /// Why the session ended.
    public enum Ending: Sendable, Equatable {
        case quit
        case signal(Int32)
        case hangUp
    }

    private let service: any OfflineMovieService
    private let policy: CachePolicy
    private let describe: @Sendable (any Error) -> String
    private let now: @Sendable () -> Date
    private let tick: Duration

    /// `describe` turns an error into the words of the status line; `tick` is how often the
    /// ages on screen ("fetched 3 minutes ago") are redrawn.
    public init(
        service: any OfflineMovieService,
        policy: CachePolicy,
        describe: @escaping @Sendable (any Error) -> String,
        now: @escaping @Sendable () -> Date = { Date() },
        tick: Duration = .seconds(1)
    ) {
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
    }

    /// Runs until `q`, Ctrl-C, a stop signal or the end of input. `visibleRows` is asked before
    /// each key (the terminal may have been resized); `draw` gets every new state.
    public func run(
        _ initial: BrowserState,
        inputs: AsyncStream<TerminalInput>,
        visibleRows: @escaping () -> Int,
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
        defer { tasks.cancelAll() }

        var state = initial
        perform(state.start(), state: state, tasks: &tasks, sink: sink)
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
            }
            draw(state)
        }
        return .hangUp
    }

    /// The tasks the effects started, so that the next effect can cancel them.
    private struct Tasks {
        var list: Task<Void, Never>?
        var observation: Task<Void, Never>?
        var movie: Task<Void, Never>?
        var background: [Task<Void, Never>] = []

        func cancelAll() {
            ([list, observation, movie].compactMap { $0 } + background).forEach { $0.cancel() }
        }
    }

    private func perform(_ effects: [BrowserEffect], state: BrowserState, tasks: inout Tasks, sink: AsyncStream<Event>.Continuation) {
        for effect in effects {
            switch effect {
            case let .loadList(tab, year):
                tasks.list?.cancel()
                tasks.observation?.cancel()
                tasks.list = loadList(tab, year: year, sink: sink)
                tasks.observation = observeList(tab, year: year, sink: sink)
            case .cancelList:
                tasks.list?.cancel()
                tasks.observation?.cancel()
            case let .loadMovie(id):
                tasks.movie?.cancel()
                tasks.movie = loadMovie(id: id, sink: sink)
            case .cancelMovie:
                tasks.movie?.cancel()
            case .quit:
                break
            }
        }
    }

    private func loadList(_ tab: BrowserTab, year: Int, sink: AsyncStream<Event>.Continuation) -> Task<Void, Never> {
        let stream = switch tab {
        case .topGrossing: service.topGrossingMovies(year: year, policy: policy)
        case .topRated: service.topRatedMovies(year: year, policy: policy)
        }
        return Task { [describe] in
            do {
                for try await snapshot in stream {
                    sink.yield(.update(.listAnswer(tab, year: year, movies: snapshot.value, answer: Self.answer(of: snapshot, describe: describe))))
                }
                sink.yield(.update(.listFinished(tab, year: year, failure: nil)))
            } catch {
                guard !Task.isCancelled, !(error is CancellationError) else { return }
                sink.yield(.update(.listFinished(tab, year: year, failure: TerminalText.safe(describe(error)))))
            }
        }
    }

    private func observeList(_ tab: BrowserTab, year: Int, sink: AsyncStream<Event>.Continuation) -> Task<Void, Never> {
        let stored = switch tab {
        case .topGrossing: service.observeTopGrossing(year: year)
        case .topRated: service.observeTopRated(year: year)
        }
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

    private func loadMovie(id: Int, sink: AsyncStream<Event>.Continuation) -> Task<Void, Never> {
        let stream = service.movie(id: id, policy: policy)
        return Task { [describe] in
            do {
                for try await snapshot in stream {
                    sink.yield(.update(.movieAnswer(id: id, movie: snapshot.value, answer: Self.answer(of: snapshot, describe: describe))))
                }
                sink.yield(.update(.movieFinished(id: id, failure: nil)))
            } catch {
                guard !Task.isCancelled, !(error is CancellationError) else { return }
                sink.yield(.update(.movieFinished(id: id, failure: TerminalText.safe(describe(error)))))
            }
        }
    }

    private static func answer<Value>(of snapshot: MovieSnapshot<Value>, describe: (any Error) -> String) -> Answer {
        let source: Answer.Source = switch snapshot.source {
        case .store: .store
        case .network: .network
        case let .derived(records): .derived(records: records)
        }
        return Answer(source: source, fetchedAt: snapshot.fetchedAt, failure: snapshot.networkError.map { TerminalText.safe(describe($0)) })
    }
}
