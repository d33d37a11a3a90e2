import Foundation
import MovieBrowser
import MovieStore
import Movies
import Testing
import TextFormatting

/// Whether a movie is on the watchlist, on every screen: a mark in the lists and the search, a
/// line on the movie's page, and `w`'s way on the key line.
@Suite("Browse: the watchlist's marks")
struct BrowserWatchlistMarksTests {
    let now = Sample.fetchedAt

    /// The top grossing list with movie 2 on the watchlist, and movie 3's removal pending.
    func state() -> BrowserState {
        var state = BrowserState(apiName: "test", year: 2016)
        _ = state.start()
        state.apply(.listAnswer(.topGrossing, year: 2016, movies: Sample.ten, answer: Answer(source: .network, fetchedAt: now)))
        state.apply(.watchlistShown(WatchlistView(lines: [
            WatchlistView.Line(movieID: 2, note: "", changedAt: 1, pending: nil, movie: Sample.ten[1]),
            WatchlistView.Line(movieID: 3, note: "", changedAt: 2, pending: .removing, movie: Sample.ten[2]),
        ], pendingChanges: 1, pulledAt: nil, serverHasNone: false)))
        return state
    }

    func lines(_ state: BrowserState) -> [String] {
        BrowserLayout(width: 100, height: 30, color: false).lines(for: state, now: now)
    }

    @Test("a movie on the watchlist is marked at the right end of its title; a pending removal and the others are not")
    func marks() {
        let drawn = lines(state())
        let row = { (name: String) in drawn.first { $0.contains(name + " (2016)") } ?? "" }
        #expect(row("Movie 2").contains("(2016)") && row("Movie 2").contains(" ✓  "), "\(row("Movie 2"))")
        #expect(!row("Movie 1").contains("✓"))
        #expect(!row("Movie 3").contains("✓"), "a removal pending is off the list")
        #expect(drawn.allSatisfy { DisplayWidth.of($0) == 100 })
    }

    @Test("the key line says which way w goes for the selected movie, and the movie's page says whether it is on the list")
    func whichWay() {
        var state = state()
        #expect(lines(state).last?.contains("w add") == true, "\(lines(state).last ?? "")")
        _ = state.handle(.down, visibleRows: 10)
        #expect(lines(state).last?.contains("w remove") == true)
        _ = state.handle(.enter, visibleRows: 10)
        let page = lines(state)
        #expect(page.contains { $0.hasPrefix(" Watchlist ✓ on your watchlist (w removes it)") }, "\(page)")
        #expect(page.last?.contains("w remove") == true)
        _ = state.handle(.escape, visibleRows: 10)
        _ = state.handle(.up, visibleRows: 10)
        _ = state.handle(.enter, visibleRows: 10)
        #expect(lines(state).contains { $0.hasPrefix(" Watchlist not on your watchlist (w adds it)") })
        #expect(lines(state).last?.contains("w add") == true)
    }

    @Test("a movie's page shows the person's rating, as the store has it, under the watchlist's line; a movie not rated shows none")
    func rating() {
        var state = BrowserState(apiName: "test", year: 2016)
        _ = state.start()
        state.apply(.listAnswer(.topGrossing, year: 2016, movies: Sample.ten, answer: Answer(source: .network, fetchedAt: now)))
        var view = WatchlistView(lines: [], pendingChanges: 0, pulledAt: nil, serverHasNone: false)
        view.shelf = ShelfOverview(ratings: [ShelfOverview.Rating(movieID: 1, score: 7, title: nil, isPending: false)])
        state.apply(.watchlistShown(view))
        _ = state.handle(.enter, visibleRows: 10)
        let page = lines(state)
        let watchlistRow = page.firstIndex { $0.hasPrefix(" Watchlist ") }
        #expect(watchlistRow.map { page[$0 + 1].hasPrefix(" Yours     7/10 (★★★½)") } == true, "\(page)")
        _ = state.handle(.escape, visibleRows: 10)
        _ = state.handle(.down, visibleRows: 10)
        _ = state.handle(.enter, visibleRows: 10)
        #expect(!lines(state).contains { $0.hasPrefix(" Yours") })
    }

    @Test("while a person signs in nothing is marked, and w offers the sign-in, not a change")
    func signingIn() {
        var state = state()
        state.apply(.watchlistSignIn(.code(page: "http://sign.test/device", userCode: "BCDF-GHJK", complete: nil)))
        _ = state.handle(.down, visibleRows: 10)
        let drawn = lines(state)
        #expect(!drawn.contains { $0.contains("✓") })
        #expect(drawn.last?.contains("w sign in") == true, "\(drawn.last ?? "")")
    }

    @Test("the Watchlist segment's sign-in offers neither w nor sync; a sign-in that ended says why and that r asks for a new code")
    func signInKeys() {
        var state = state()
        _ = state.handle(.left, visibleRows: 10)
        state.apply(.watchlistSignIn(.code(page: "http://sign.test/device", userCode: "BCDF-GHJK", complete: nil)))
        let waiting = lines(state)
        #expect(waiting.last.map { !$0.contains("w ") && !$0.contains("r ") } == true, "\(waiting.last ?? "")")
        state.apply(.watchlistSignIn(.ended("not signed in: the code expired before it was approved")))
        let ended = lines(state)
        #expect(ended.contains { $0.contains("not signed in: the code expired before it was approved") }, "\(ended)")
        #expect(ended.contains { $0.contains("Press r for a new code") })
        #expect(!ended.contains { $0.contains("and enter the code") })
        #expect(ended[ended.count - 2].hasPrefix("not signed in: press r for a new code"))
        #expect(ended.last.map { $0.contains("r new code") && !$0.contains("w add") && !$0.contains("w remove") && !$0.contains("w sign in") } == true)
        #expect(state.handle(.character("r"), visibleRows: 10) == [.syncWatchlist], "r asks for a new code")
    }
}
