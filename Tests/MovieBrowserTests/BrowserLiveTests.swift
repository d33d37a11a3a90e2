import Foundation
import MovieBrowser
import Movies
import MovieStore
import Synchronization
import TextFormatting
import Testing

/// A watchlist over a real store whose live feed is what the test sends: each element is told to
/// the session as the app's feed would tell it.
struct ScriptedLiveWatchlist: BrowserWatchlist {
    let store: MovieStore
    let feed: AsyncStream<BrowserLive>

    func view() async throws -> WatchlistView { try await store.watchlist(api: RunningSession.api) }
    func change(movieID: Int, add: Bool) async throws {
        _ = try await store.recordWatchlistChange(movieID: movieID, action: add ? .add : .remove, api: RunningSession.api)
    }
    /// Says so on the status line, so that a test can wait until the first sync has shown the list.
    func sync() async -> String? { "synced here" }

    func follow(_ report: @escaping @Sendable (BrowserLive) async -> Void) async {
        for await live in feed { await report(live) }
    }
}

@Suite("Browse: the live feed", .timeLimit(.minutes(1)))
struct BrowserLiveTests {
    @Test("the feed's state is on the status line, at its right end, as it changes, with the reason of a reconnection")
    func statusLine() async throws {
        let (feed, send) = AsyncStream<BrowserLive>.makeStream()
        let session = try await RunningSession(policy: .cacheOnly) { store in ScriptedLiveWatchlist(store: store, feed: feed) }
        // The list settled, so the status beside the feed's state is as short as it stays.
        _ = await session.frame { !$0.pane.movies.isEmpty && !$0.pane.answer.isRefreshing }
        send.yield(.status("live"))
        let live = try #require(await session.frame { $0.live == "live" })
        let line = BrowserLayout(width: 80, height: 24, color: false).lines(for: live, now: Date())[22]
        #expect(line.hasSuffix(" live "), "right-aligned: \(line)")
        #expect(DisplayWidth.of(line) == 80)

        send.yield(.status("reconnecting in 4 s"))
        let reconnecting = await session.frame { $0.live == "reconnecting in 4 s" }
        #expect(reconnecting.map { BrowserLayout(width: 80, height: 24, color: false).lines(for: $0, now: Date())[22].hasSuffix(" reconnecting in 4 s ") } == true)

        let why = "reconnecting in 1.4 s: the server sent a line over 64 KiB"
        send.yield(.status(why))
        let dropped = try #require(await session.frame { $0.live == why })
        let wide = BrowserLayout(width: 110, height: 24, color: false).lines(for: dropped, now: Date())[22]
        #expect(wide.hasSuffix(" \(why) "), "the reason whole, in more than half the line, when the status leaves room: \(wide)")
        #expect(DisplayWidth.of(wide) == 110)
        session.press(.character("q"))
        #expect(await session.ending.value == .quit)
    }

    @Test("a change another device made, applied to the store by the feed, appears in the Watchlist segment without a key")
    func watchlistChangeAppears() async throws {
        let (feed, send) = AsyncStream<BrowserLive>.makeStream()
        let session = try await RunningSession(policy: .cacheOnly) { store in ScriptedLiveWatchlist(store: store, feed: feed) }
        session.press(.left)
        let empty = await session.frame { $0.tab == .watchlist && $0.watchlist.status == "synced here" }
        #expect(empty?.watchlist.lines.isEmpty == true, "the start's sync has shown the list: only the feed shows it again")

        let movie = RunningSession.stored[3]
        let item = WatchlistItem(movieID: movie.id, note: "from the laptop", changedAt: Int64(Date().timeIntervalSince1970 * 1000))
        _ = try await session.store.applyLiveUpdate(.watchlist(item, removed: false, cursor: "7"), api: RunningSession.api)
        send.yield(.watchlistChanged)
        let shown = await session.frame { !$0.watchlist.lines.isEmpty }
        #expect(shown?.watchlist.lines.map(\.movieID) == [movie.id])
        #expect(shown?.watchlist.lines.first?.movie?.name == movie.name)
        #expect(shown?.watchlist.lines.first?.pending == nil, "the server's change is not this machine's pending one")
        session.press(.character("q"))
        #expect(await session.ending.value == .quit)
    }

    @Test("a catalogue change asks again for the list and the open movie on screen, once each")
    func catalogueChangeReloads() async throws {
        let (feed, send) = AsyncStream<BrowserLive>.makeStream()
        let session = try await RunningSession { store in ScriptedLiveWatchlist(store: store, feed: feed) }
        await session.service.gate.open()
        _ = await session.frame { $0.pane.answer.source == .network && !$0.pane.answer.isRefreshing }
        #expect(session.service.callCount == 1)

        send.yield(.catalogChanged)
        let refreshing = await session.frame { $0.pane.answer.isRefreshing }
        #expect(refreshing != nil, "the list is asked for again")
        _ = await session.frame { $0.pane.answer.source == .network && !$0.pane.answer.isRefreshing }
        #expect(session.service.callCount == 2)

        session.press(.enter)
        let opened = await session.frame { $0.detail != nil && $0.detail?.answer.isRefreshing == false }
        #expect(session.service.callCount == 3)
        send.yield(.catalogChanged)
        _ = await session.frame { $0.detail?.answer.isRefreshing == true }
        let reloaded = await session.frame { $0.detail?.answer.isRefreshing == false && $0.pane.answer.isRefreshing == false }
        #expect(reloaded?.detail?.movie.id == opened?.detail?.movie.id, "the same movie stays open")
        #expect(session.service.callCount == 5, "the list behind the movie and the movie, once each")
        session.press(.character("q"))
        #expect(await session.ending.value == .quit)
    }

    @Test("five catalogue events at once are one request (each reload cancels the one before); under cacheElseNetwork, whose stored list is fresh, the reload asks the network")
    func burstIsOneReload() async throws {
        let (feed, send) = AsyncStream<BrowserLive>.makeStream()
        let session = try await RunningSession(policy: .cacheElseNetwork(maxAge: nil), storedAt: Date()) { store in ScriptedLiveWatchlist(store: store, feed: feed) }
        await session.service.gate.open()
        let stored = await session.frame { $0.pane.answer.source == .store && !$0.pane.movies.isEmpty }
        #expect(stored?.pane.movies == RunningSession.stored)
        #expect(session.service.callCount == 0, "a fresh stored list is the answer")

        for _ in 0..<5 { send.yield(.catalogChanged) }
        let fresh = await session.frame { $0.pane.answer.source == .network && !$0.pane.answer.isRefreshing }
        #expect(fresh?.pane.movies == RunningSession.grossing)
        #expect(session.service.callCount == 1, "five events, one request")
        send.yield(.catalogChanged)
        _ = await session.frame { $0.pane.answer.isRefreshing }
        _ = await session.frame { $0.pane.answer.source == .network && !$0.pane.answer.isRefreshing }
        #expect(session.service.callCount == 2, "the burst's reload, then one for the event after it")
        session.press(.character("q"))
        #expect(await session.ending.value == .quit)
    }

    @Test("q while the feed is still applying: the session returns only once the feed has ended")
    func quitWaitsForTheFeed() async throws {
        let feedEnded = EndingWatchlist.Flag()
        let session = try await RunningSession(policy: .cacheOnly) { store in EndingWatchlist(store: store, ended: feedEnded) }
        _ = await session.frame { !$0.pane.movies.isEmpty }
        session.press(.character("q"))
        #expect(await session.ending.value == .quit)
        #expect(feedEnded.isSet, "the feed's task had ended when the session returned")
    }
}

/// A watchlist whose feed runs until cancelled, then takes 50 ms to wind down (as a write in
/// flight would), and says when it has ended.
struct EndingWatchlist: BrowserWatchlist {
    final class Flag: Sendable {
        private let value = Mutex(false)
        var isSet: Bool { value.withLock { $0 } }
        func set() { value.withLock { $0 = true } }
    }

    let store: MovieStore
    let ended: Flag

    func view() async throws -> WatchlistView { try await store.watchlist(api: RunningSession.api) }
    func change(movieID: Int, add: Bool) async throws {}
    func sync() async -> String? { nil }

    func follow(_ report: @escaping @Sendable (BrowserLive) async -> Void) async {
        while !Task.isCancelled { try? await Task.sleep(for: .milliseconds(5)) }
        usleep(50_000)
        ended.set()
    }
}
