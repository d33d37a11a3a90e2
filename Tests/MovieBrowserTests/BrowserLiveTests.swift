import Foundation
import MarqueeTestSupport
import MovieBrowser
import Movies
import MovieStore
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
    func sync() async -> String? { nil }

    func follow(_ report: @escaping @Sendable (BrowserLive) async -> Void) async {
        for await live in feed { await report(live) }
    }
}

@Suite("Browse: the live feed", .timeLimit(.minutes(1)))
struct BrowserLiveTests {
    @Test("the feed's state is on the status line, at its right end, as it changes")
    func statusLine() async throws {
        let (feed, send) = AsyncStream<BrowserLive>.makeStream()
        let session = try await RunningSession(policy: .cacheOnly) { store in ScriptedLiveWatchlist(store: store, feed: feed) }
        _ = await session.frame { !$0.pane.movies.isEmpty }
        send.yield(.status("live"))
        let live = try #require(await session.frame { $0.live == "live" })
        let line = BrowserLayout(width: 80, height: 24, color: false).lines(for: live, now: Date())[22]
        #expect(line.hasSuffix(" live "), "right-aligned: \(line)")
        #expect(DisplayWidth.of(line) == 80)

        send.yield(.status("reconnecting in 4 s"))
        let reconnecting = await session.frame { $0.live == "reconnecting in 4 s" }
        #expect(reconnecting.map { BrowserLayout(width: 80, height: 24, color: false).lines(for: $0, now: Date())[22].hasSuffix(" reconnecting in 4 s ") } == true)
        session.press(.character("q"))
        #expect(await session.ending.value == .quit)
    }

    @Test("a change another device made, applied to the store by the feed, appears in the Watchlist segment without a key")
    func watchlistChangeAppears() async throws {
        let (feed, send) = AsyncStream<BrowserLive>.makeStream()
        let session = try await RunningSession(policy: .cacheOnly) { store in ScriptedLiveWatchlist(store: store, feed: feed) }
        session.press(.left)
        let empty = await session.frame { $0.tab == .watchlist }
        #expect(empty?.watchlist.lines.isEmpty == true)

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
}
