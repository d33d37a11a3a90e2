import Foundation
import MarqueeTestSupport
import MovieBrowser
import Movies
import MovieStore
import Testing

/// A watchlist over a real store whose server is a gate: a sync waits until the test opens it,
/// then acknowledges every pending change as applied, as the movie API would.
struct GatedWatchlist: BrowserWatchlist {
    let store: MovieStore
    let gate: Gate
    static let api = RunningSession.api

    func view() async throws -> WatchlistView { try await store.watchlist(api: Self.api) }

    func change(movieID: Int, add: Bool) async throws {
        _ = try await store.recordWatchlistChange(movieID: movieID, action: add ? .add : .remove, api: Self.api)
    }

    func sync() async -> String? {
        do {
            try await gate.pass()
            let pending = try await store.pendingWatchlistChanges(api: Self.api)
            try await store.acknowledgeWatchlistChanges(pending.map { ($0, .applied) }, api: Self.api)
            return nil
        } catch {
            return "\(error)"
        }
    }
}

@Suite("Browse: the watchlist")
struct BrowserWatchlistTests {
    @Test("w adds the selected movie at once, marked pending on the Watchlist segment, and the mark goes when the sync answers; w there removes it")
    func addThenSync() async throws {
        let gate = Gate()
        let session = try await RunningSession(policy: .cacheOnly) { store in GatedWatchlist(store: store, gate: gate) }
        _ = await session.frame { !$0.pane.movies.isEmpty }
        session.press(.character("w"))
        let pending = await session.frame { $0.watchlist.lines.first?.pending == .adding }
        #expect(pending?.watchlist.lines.map(\.movieID) == [RunningSession.stored[0].id], "shown before the server answers")
        #expect(pending?.watchlist.isSyncing == true)
        session.press(.left)
        let tab = await session.frame { $0.tab == .watchlist }
        #expect(tab?.watchlist.lines.first?.movie?.name == RunningSession.stored[0].name, "the title comes from the store")

        await gate.open()
        let synced = await session.frame { !$0.watchlist.isSyncing && $0.watchlist.lines.first?.pending == nil }
        #expect(synced?.watchlist.lines.count == 1)
        #expect(synced?.watchlist.status == nil)

        session.press(.character("w"))
        let removed = await session.frame { $0.watchlist.lines.isEmpty && !$0.watchlist.isSyncing }
        #expect(removed != nil, "removed and acknowledged")
        session.press(.character("q"))
        #expect(await session.ending.value == .quit)
    }
}
