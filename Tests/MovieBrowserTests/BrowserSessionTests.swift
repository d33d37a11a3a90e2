import Foundation
import MarqueeTestSupport
import MovieBrowser
import MovieContract
import MovieStore
import Movies
import Synchronization
import Testing

/// A base service whose lists wait at a gate, and which counts its calls.
final class GatedMovieService: MovieService {
    let gate: Gate
    let grossing: [Movie]
    let rated: [Movie]
    private let failure: Mutex<(any Error)?> = Mutex(nil)
    private let calls = Mutex(0)

    init(gate: Gate, grossing: [Movie], rated: [Movie]) {
        self.gate = gate
        self.grossing = grossing
        self.rated = rated
    }

    var callCount: Int { calls.withLock { $0 } }
    func fail(with error: (any Error)?) { failure.withLock { $0 = error } }

    func movie(id: Int) async throws -> Movie {
        try await answer(grossing + rated).first { $0.id == id }!
    }

    func movies(_ list: MovieList, year: Int) async throws -> [Movie] { try await answer(list == .topGrossing ? grossing : rated) }
    func search(_ request: MovieSearchRequest) async throws -> MovieSearchPage { MovieSearchPage(movies: try await answer(grossing), next: nil) }

    private func answer(_ movies: [Movie]) async throws -> [Movie] {
        calls.withLock { $0 += 1 }
        try await gate.pass()
        if let error = failure.withLock({ $0 }) { throw error }
        return movies
    }
}

struct Offline: Error, CustomStringConvertible {
    var description: String { "cannot connect to the API" }
}

/// A running session, the frames it draws, and the keys a test sends.
final class RunningSession {
    let store: MovieStore
    let service: GatedMovieService
    private let keys: AsyncStream<TerminalInput>.Continuation
    private var frames: AsyncStream<BrowserState>.Iterator
    let ending: Task<BrowserSession.Ending, Never>

    static let api = "http://browse.test/api/"
    static let stored = Array(Sample.ten.reversed())
    static let grossing = Sample.ten
    static let rated = [Sample.movie(7, name: "Zootopia")] + Sample.ten.filter { $0.id != 7 }

    init(policy: CachePolicy = .cacheThenNetwork, storedAt: Date = Date(timeIntervalSinceNow: -3600), watchlist: (@Sendable (MovieStore) -> any BrowserWatchlist)? = nil) async throws {
        store = try MovieStore(url: TestFolders.temporary.appendingPathComponent("browse-\(UUID().uuidString)/movies.sqlite"))
        try await store.saveList(Self.stored, for: ListQuery(.topGrossing, year: 2016), api: Self.api, fetchedAt: storedAt)
        service = GatedMovieService(gate: Gate(), grossing: Self.grossing, rated: Self.rated)
        let cached = CachedMovieService(base: service, store: store, api: Self.api)
        let session = BrowserSession(service: cached, policy: policy, describe: { "\($0)" }, tick: .seconds(3600), watchlist: watchlist?(store))
        let (inputs, keys) = AsyncStream<TerminalInput>.makeStream()
        let (frames, drawn) = AsyncStream<BrowserState>.makeStream()
        self.keys = keys
        self.frames = frames.makeAsyncIterator()
        ending = Task {
            let ending = await session.run(BrowserState(apiName: "test", year: 2016), inputs: inputs, visibleRows: { 5 }, draw: { drawn.yield($0) })
            drawn.finish()
            return ending
        }
    }

    func press(_ keys: Key...) { self.keys.yield(.keys(keys)) }
    func send(_ input: TerminalInput) { keys.yield(input) }

    /// The first frame from now on that `matches`; `nil` when the session ended first.
    func frame(isolation: isolated (any Actor)? = #isolation, where matches: (BrowserState) -> Bool) async -> BrowserState? {
        while let state = await frames.next(isolation: isolation) {
            if matches(state) { return state }
        }
        return nil
    }
}

@Suite("Browser session", .timeLimit(.minutes(1)))
struct BrowserSessionTests {
    @Test("the stored list is drawn at once, marked refreshing, then the network's replaces it")
    func storedThenNetwork() async throws {
        let session = try await RunningSession()
        let stored = await session.frame { $0.pane.answer.source == .store }
        #expect(stored?.pane.movies == RunningSession.stored)
        #expect(stored?.pane.answer.isRefreshing == true)
        await session.service.gate.open()
        let fresh = await session.frame { $0.pane.answer.source == .network }
        #expect(fresh?.pane.movies == RunningSession.grossing)
        #expect(fresh?.pane.answer.isRefreshing == false)
        session.press(.character("q"))
        #expect(await session.ending.value == .quit)
    }

    @Test("switching segments cancels the load still in flight and starts the other's")
    func switchingCancels() async throws {
        let session = try await RunningSession()
        var arrivals = session.service.gate.arrivals.makeAsyncIterator()
        await arrivals.next()
        session.press(.right)
        var cancellations = session.service.gate.cancellations.makeAsyncIterator()
        await cancellations.next()
        await session.service.gate.open()
        let rated = await session.frame { $0.tab == .topRated && $0.pane.answer.source == .network }
        #expect(rated?.pane.movies.first?.name == "Zootopia")
        #expect(rated?.panes[.topGrossing]?.movies == RunningSession.stored, "the cancelled load never answered")
        #expect(session.service.callCount == 2)
        session.send(.signal(SIGTERM))
        #expect(await session.ending.value == .signal(SIGTERM))
    }

    @Test("a newer list stored by another connection is drawn without a key")
    func live() async throws {
        let session = try await RunningSession()
        await session.service.gate.open()
        _ = await session.frame { $0.pane.answer.source == .network }
        let otherProcess = try MovieStore(url: session.store.url)
        let newer = [Sample.movie(42, name: "Stored Elsewhere")]
        try await otherProcess.saveList(newer, for: ListQuery(.topGrossing, year: 2016), api: RunningSession.api, fetchedAt: Date().addingTimeInterval(5))
        let redrawn = await session.frame { $0.pane.movies == newer }
        #expect(redrawn?.pane.answer.source == .store)
        session.send(.hangUp)
        #expect(await session.ending.value == .hangUp)
    }

    @Test("offline, the stored list stays with the error; r tries again and the network's list arrives")
    func offlineThenRetry() async throws {
        let session = try await RunningSession()
        session.service.fail(with: Offline())
        await session.service.gate.open()
        let offline = await session.frame { !$0.pane.answer.isRefreshing && $0.pane.answer.failure != nil }
        #expect(offline?.pane.movies == RunningSession.stored)
        #expect(offline?.pane.answer.failure == "cannot connect to the API")
        session.service.fail(with: nil)
        session.press(.character("r"))
        let fresh = await session.frame { $0.pane.answer.source == .network }
        #expect(fresh?.pane.movies == RunningSession.grossing)
        #expect(fresh?.pane.answer.failure == nil)
        session.press(.interrupt)
        #expect(await session.ending.value == .quit)
    }

    @Test("Enter opens the movie through the same service and store; Esc goes back")
    func openMovie() async throws {
        let session = try await RunningSession(policy: .networkElseCache)
        await session.service.gate.open()
        _ = await session.frame { $0.pane.answer.source == .network }
        session.press(.home, .down, .enter)
        let detail = await session.frame { $0.detail?.answer.source == .network }
        #expect(detail?.detail?.movie == RunningSession.grossing[1])
        #expect(try await session.store.movie(id: 2, api: RunningSession.api)?.value == RunningSession.grossing[1])
        session.press(.escape)
        #expect(await session.frame { $0.detail == nil } != nil)
        session.press(.character("q"))
        #expect(await session.ending.value == .quit)
    }
}
