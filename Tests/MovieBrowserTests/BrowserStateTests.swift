import Foundation
import MovieBrowser
import MovieStore
import Movies
import Testing

@Suite("Browser state")
struct BrowserStateTests {
    func loaded() -> BrowserState {
        var state = BrowserState(apiName: "the embedded API", year: 2016)
        #expect(state.start() == [.loadList(.topGrossing, year: 2016), .loadWatchlist], "the watchlist is read at start, so w knows what is on it")
        state.apply(.listAnswer(.topGrossing, year: 2016, movies: Sample.ten, answer: Answer(source: .network, fetchedAt: Sample.fetchedAt)))
        return state
    }

    @Test("←, → and Tab cycle through the six segments, cancelling the old load and starting the new one; a digit goes straight to one")
    func switching() {
        var state = loaded()
        #expect(state.handle(.right, visibleRows: 5) == [.cancelList, .loadList(.topRated, year: 2016)])
        #expect(state.tab == .topRated)
        #expect(state.pane.answer.isRefreshing)
        for shelf in [BrowserTab.ratings, .diary, .lists, .watchlist] {
            #expect(state.handle(.tab, visibleRows: 5) == [.cancelList, .loadWatchlist], "the person's segments read the store, then sync")
            #expect(state.tab == shelf)
        }
        #expect(state.handle(.tab, visibleRows: 5) == [.cancelList, .loadList(.topGrossing, year: 2016)])
        #expect(state.tab == .topGrossing)
        #expect(state.pane.movies == Sample.ten, "a segment keeps its table while it refreshes")
        _ = state.handle(.left, visibleRows: 5)
        #expect(state.tab == .watchlist)
        _ = state.handle(.backTab, visibleRows: 5)
        #expect(state.tab == .lists)
        #expect(state.handle(.character("4"), visibleRows: 5) == [.cancelList, .loadWatchlist])
        #expect(state.tab == .diary)
        #expect(state.handle(.character("4"), visibleRows: 5) == [], "the segment shown is not loaded again")
        #expect(state.handle(.character("2"), visibleRows: 5) == [.cancelList, .loadList(.topRated, year: 2016)])
        _ = state.handle(.character("7"), visibleRows: 5)
        #expect(state.tab == .topRated, "there is no seventh segment")
    }

    @Test("w adds the selected movie to the watchlist, or removes it when it is on it; the Watchlist segment shows pending changes and removes with w")
    func watchlist() {
        var state = loaded()
        #expect(state.handle(.character("w"), visibleRows: 5) == [.changeWatchlist(movieID: 1, add: true)])
        #expect(state.watchlist.isSyncing)
        let pending = WatchlistView(lines: [WatchlistView.Line(movieID: 1, note: "", changedAt: 2, pending: .adding, movie: Sample.ten[0])], pendingChanges: 1, pulledAt: nil, serverHasNone: false)
        state.apply(.watchlistShown(pending))
        #expect(state.watchlist.contains(1))
        #expect(state.handle(.character("w"), visibleRows: 5) == [.changeWatchlist(movieID: 1, add: false)], "on the list: w removes")
        _ = state.handle(.down, visibleRows: 5)
        #expect(state.handle(.character("w"), visibleRows: 5) == [.changeWatchlist(movieID: 2, add: true)])
        _ = state.handle(.enter, visibleRows: 5)
        #expect(state.handle(.character("w"), visibleRows: 5) == [.changeWatchlist(movieID: 2, add: true)], "w works on an open movie")
        _ = state.handle(.escape, visibleRows: 5)
        state.apply(.watchlistSynced(status: nil))
        #expect(!state.watchlist.isSyncing)

        _ = state.handle(.left, visibleRows: 5)
        #expect(state.tab == .watchlist)
        #expect(state.handle(.character("r"), visibleRows: 5) == [.syncWatchlist])
        #expect(state.handle(.enter, visibleRows: 5) == [.loadMovie(id: 1)])
        _ = state.handle(.escape, visibleRows: 5)
        #expect(state.handle(.character("w"), visibleRows: 5) == [.changeWatchlist(movieID: 1, add: false)])
        #expect(state.notice == "removed Movie 1 from the watchlist")
    }

    @Test("↑/↓, PgUp/PgDn and Home/End move the selection within the table and scroll to it")
    func moving() {
        var state = loaded()
        _ = state.handle(.up, visibleRows: 4)
        #expect(state.pane.selection == 0)
        _ = state.handle(.pageDown, visibleRows: 4)
        #expect(state.pane.selection == 4)
        #expect(state.pane.firstVisible == 1)
        _ = state.handle(.end, visibleRows: 4)
        #expect(state.pane.selection == 9)
        #expect(state.pane.firstVisible == 6)
        _ = state.handle(.down, visibleRows: 4)
        #expect(state.pane.selection == 9)
        _ = state.handle(.pageUp, visibleRows: 4)
        #expect(state.pane.selection == 5)
        #expect(state.pane.firstVisible == 5)
        _ = state.handle(.home, visibleRows: 4)
        #expect(state.pane.selection == 0)
        #expect(state.pane.firstVisible == 0)
    }

    @Test("Enter opens the selected movie and loads it; its answer replaces the details; Esc goes back")
    func detail() {
        var state = loaded()
        _ = state.handle(.down, visibleRows: 5)
        #expect(state.handle(.enter, visibleRows: 5) == [.loadMovie(id: 2)])
        #expect(state.detail?.movie == Sample.movie(2))
        let full = Sample.movie(2, cast: ["Ann Actor", "Bob Actor", "Cid Actor", "Dee Actor"])
        state.apply(.movieAnswer(id: 3, movie: Sample.movie(3), answer: Answer(source: .network)))
        #expect(state.detail?.movie == Sample.movie(2), "an answer for another movie is dropped")
        state.apply(.movieAnswer(id: 2, movie: full, answer: Answer(source: .network, fetchedAt: Sample.fetchedAt)))
        #expect(state.detail?.movie.cast.count == 4)
        #expect(state.detail?.answer.isRefreshing == false)
        for _ in 0..<10 { _ = state.handle(.down, visibleRows: 5) }
        #expect(state.detail?.firstVisible == 3, "the cast scrolls no further than its last member")
        _ = state.handle(.up, visibleRows: 5)
        #expect(state.detail?.firstVisible == 2, "one key up scrolls back at once")
        #expect(state.handle(.escape, visibleRows: 5) == [.cancelMovie])
        #expect(state.detail == nil)
        #expect(state.pane.selection == 1)
    }

    @Test("[ and ] change the year, y types one; a new year empties the tables and reloads")
    func years() {
        var state = loaded()
        #expect(state.handle(.character("]"), visibleRows: 5) == [.cancelList, .loadList(.topGrossing, year: 2017)])
        #expect(state.pane.movies.isEmpty)
        state.apply(.listAnswer(.topGrossing, year: 2016, movies: Sample.ten, answer: Answer(source: .network)))
        #expect(state.pane.movies.isEmpty, "a late answer for the previous year is dropped")
        #expect(state.handle(.character("y"), visibleRows: 5) == [])
        for key: Key in [.character("1"), .character("9"), .character("x"), .character("9"), .character("9"), .character("9")] {
            #expect(state.handle(key, visibleRows: 5) == [])
        }
        #expect(state.yearDraft == "1999")
        _ = state.handle(.backspace, visibleRows: 5)
        _ = state.handle(.character("5"), visibleRows: 5)
        #expect(state.handle(.enter, visibleRows: 5) == [.cancelList, .loadList(.topGrossing, year: 1995)])
        #expect(state.year == 1995)
        _ = state.handle(.character("y"), visibleRows: 5)
        _ = state.handle(.character("0"), visibleRows: 5)
        #expect(state.handle(.enter, visibleRows: 5) == [])
        #expect(state.notice == "a year is a number from 1 to 9999")
        #expect(state.year == 1995)
    }

    @Test("a stored list replaces the table only when it is newer than what is on screen")
    func storedLists() {
        var state = loaded()
        let renamed = [Sample.movie(1, name: "Renamed")]
        state.apply(.listStored(.topGrossing, year: 2016, movies: renamed, fetchedAt: Sample.fetchedAt))
        #expect(state.pane.movies == Sample.ten, "the network's own answer, stored, changes nothing")
        state.apply(.listStored(.topGrossing, year: 2016, movies: renamed, fetchedAt: Sample.fetchedAt.addingTimeInterval(0.000_000_2)))
        #expect(state.pane.movies == Sample.ten, "nor does it when the store's rounding made its date a little later")
        #expect(state.pane.answer.source == .network)
        state.apply(.listStored(.topGrossing, year: 2016, movies: renamed, fetchedAt: Sample.fetchedAt.addingTimeInterval(60)))
        #expect(state.pane.movies == renamed)
        #expect(state.pane.answer == Answer(source: .store, fetchedAt: Sample.fetchedAt.addingTimeInterval(60)))
    }

    @Test("a failed load keeps the stored table and says why; r tries again")
    func failures() {
        var state = BrowserState(apiName: "api", year: 2016)
        _ = state.start()
        state.apply(.listAnswer(.topGrossing, year: 2016, movies: Sample.ten, answer: Answer(source: .store, fetchedAt: Sample.fetchedAt)))
        #expect(state.pane.answer.isRefreshing)
        state.apply(.listFinished(.topGrossing, year: 2016, failure: "cannot connect"))
        #expect(state.pane.movies == Sample.ten)
        #expect(state.pane.answer == Answer(source: .store, fetchedAt: Sample.fetchedAt, failure: "cannot connect"))
        #expect(state.handle(.character("r"), visibleRows: 5) == [.cancelList, .loadList(.topGrossing, year: 2016)])
        #expect(state.pane.answer.failure == nil)
        #expect(state.pane.answer.isRefreshing)
    }

    @Test("q and Ctrl-C quit; ? shows the keys and any key closes them")
    func quitAndHelp() {
        var state = loaded()
        #expect(state.handle(.character("?"), visibleRows: 5) == [])
        #expect(state.showsHelp)
        #expect(state.handle(.down, visibleRows: 5) == [])
        #expect(!state.showsHelp)
        #expect(state.pane.selection == 0, "the key that closes the help does nothing else")
        #expect(state.handle(.character("q"), visibleRows: 5) == [.quit])
        #expect(state.handle(.interrupt, visibleRows: 5) == [.quit])
    }
}
