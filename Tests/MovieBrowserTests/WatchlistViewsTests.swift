import Foundation
@testable import MovieBrowser
import MovieStore
import Synchronization
import Testing

/// The browser reads the watchlist to show one read at a time (`WatchlistViews`): a view read
/// before a change reaches the screen before one read after it, never after it.
@Suite("Browse: watchlist views in order", .timeLimit(.minutes(1)))
struct WatchlistViewsTests {
    /// A watchlist whose list is set by the test, whose first read is held until the test lets
    /// it go (as a slow store read would be), and which counts reads under way at once.
    final class HeldWatchlist: BrowserWatchlist {
        private struct State {
            var movieIDs: [Int] = []
            var reads = 0
            var underWay = 0
            var mostAtOnce = 0
        }

        private let state = Mutex(State())
        let firstReadHeld = AsyncStream<Void>.makeStream()
        let release = AsyncStream<Void>.makeStream()

        func set(_ movieIDs: [Int]) { state.withLock { $0.movieIDs = movieIDs } }
        var mostReadsAtOnce: Int { state.withLock { $0.mostAtOnce } }

        func view() async throws -> WatchlistView {
            let (ids, isFirst) = state.withLock { state in
                state.reads += 1
                state.underWay += 1
                state.mostAtOnce = max(state.mostAtOnce, state.underWay)
                return (state.movieIDs, state.reads == 1)
            }
            if isFirst {
                firstReadHeld.continuation.yield()
                for await _ in release.stream { break }
            }
            state.withLock { $0.underWay -= 1 }
            let lines = ids.map { WatchlistView.Line(movieID: $0, note: "", changedAt: 0, pending: nil) }
            return WatchlistView(lines: lines, pendingChanges: 0, pulledAt: nil, serverHasNone: false)
        }

        func change(movieID: Int, add: Bool) async throws {}
        func sync() async -> String? { nil }
    }

    @Test("a read held past a change and a second ask: the reads never overlap, and the last view shown is the one read after the change")
    func newestViewShownLast() async throws {
        let watchlist = HeldWatchlist()
        let (shown, show) = AsyncStream<[Int]>.makeStream()
        let views = WatchlistViews(watchlist: watchlist) { show.yield($0.movieIDs) } failed: { Issue.record($0) }
        defer { views.cancel() }

        views.refresh()
        for await _ in watchlist.firstReadHeld.stream { break }
        watchlist.set([7])
        views.refresh()
        views.refresh()
        // Time for a second read to begin beside the held one, were reads not one at a time: the
        // pass does not depend on it (a serial reader starts none), a reader that overlapped
        // reads is caught by the count below.
        try await Task.sleep(for: .milliseconds(300))
        watchlist.release.continuation.yield()

        var iterator = shown.makeAsyncIterator()
        #expect(await iterator.next() == [], "the held read, of the list before the change")
        #expect(await iterator.next() == [7], "then one read after it, for both asks")
        #expect(watchlist.mostReadsAtOnce == 1, "a read began while another was under way")
    }
}
