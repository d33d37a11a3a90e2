import Foundation
import MovieBrowser
import MovieStore
import Movies
import Testing
import TextFormatting

@Suite("Browser shelf segments")
struct BrowserShelfTests {
    let now = Sample.fetchedAt.addingTimeInterval(60)

    static let overview = ShelfOverview(
        ratings: [
            .init(movieID: 2, score: 9, title: "Movie 2 (2016)", isPending: true),
            .init(movieID: 1, score: 7, title: nil, isPending: false),
        ],
        diary: [
            .init(entry: "e2", movieID: 3, watchedOn: "2026-11-20", rewatch: true, note: "with Ann", title: "Movie 3 (2016)", isPending: false),
            .init(entry: "e1", movieID: 1, watchedOn: "2026-01-02", rewatch: false, note: "", title: "Movie 1 (2016)", isPending: true),
        ],
        lists: [
            .init(id: "l1", name: "Noir", description: "dark ones", items: [
                .init(movieID: 4, note: "", title: "Movie 4 (2016)", isPending: false),
                .init(movieID: 5, note: "first", title: "Movie 5 (2016)", isPending: true),
            ], isPending: false),
            .init(id: "l2", name: "Empty", description: "", items: [], isPending: true),
        ]
    )

    func state(_ overview: ShelfOverview = overview) -> BrowserState {
        var state = BrowserState(apiName: "test", year: 2016)
        _ = state.start()
        state.apply(.listAnswer(.topGrossing, year: 2016, movies: Sample.ten, answer: Answer(source: .network, fetchedAt: Sample.fetchedAt)))
        var view = WatchlistView(lines: [], pendingChanges: 0, pulledAt: nil, serverHasNone: false)
        view.shelf = overview
        state.apply(.watchlistShown(view))
        return state
    }

    func lines(_ state: BrowserState, width: Int = 80, height: Int = 14) -> [String] {
        BrowserLayout(width: width, height: height, color: false).lines(for: state, now: now)
    }

    @Test("Ratings lists each rated movie newest first with its score and stars, a movie not known here by its id, pending ones marked")
    func ratings() {
        var shown = state()
        _ = shown.handle(.character("3"), visibleRows: 5)
        let drawn = lines(shown)
        #expect(drawn[1].hasPrefix(" › 9/10 (★★★★½)   Movie 2 (2016)  [pending]"), "\(drawn)")
        #expect(drawn[2].hasPrefix("   7/10 (★★★½)    movie 1 (title not fetched)"), "\(drawn)")
        #expect(drawn[12].hasPrefix("2 movies rated, 1 pending"), "\(drawn)")
    }

    @Test("the Diary lists each viewing by its day, newest first, with rewatches and notes")
    func diary() {
        var shown = state()
        _ = shown.handle(.character("4"), visibleRows: 5)
        let drawn = lines(shown)
        #expect(drawn[1].hasPrefix(" › 2026-11-20  Movie 3 (2016)  (rewatch)  with Ann"), "\(drawn)")
        #expect(drawn[2].hasPrefix("   2026-01-02  Movie 1 (2016)  [pending]"), "\(drawn)")
        #expect(drawn[12].hasPrefix("2 viewings in the diary, 1 pending"), "\(drawn)")
    }

    @Test("Lists shows each list with its count and description, its movies numbered in the owner's order under it")
    func lists() {
        var shown = state()
        _ = shown.handle(.character("5"), visibleRows: 5)
        let drawn = lines(shown)
        #expect(drawn[1].hasPrefix(" › ▸  Noir · 2 movies  dark ones"), "\(drawn)")
        #expect(drawn[2].hasPrefix("        1.  Movie 4 (2016)"), "\(drawn)")
        #expect(drawn[3].hasPrefix("        2.  Movie 5 (2016)  first  [pending]"), "\(drawn)")
        #expect(drawn[4].hasPrefix("   ▸  Empty · 0 movies  [pending]"), "\(drawn)")
        #expect(drawn[12].hasPrefix("2 lists, 2 pending"), "\(drawn)")
    }

    @Test("an empty segment says how to fill it; before the store is read it says Loading")
    func empty() {
        var shown = BrowserState(apiName: "test", year: 2016)
        _ = shown.start()
        _ = shown.handle(.character("3"), visibleRows: 5)
        #expect(lines(shown)[1].hasPrefix("   Loading…"))
        shown.apply(.watchlistShown(WatchlistView(lines: [], pendingChanges: 0, pulledAt: nil, serverHasNone: false)))
        #expect(lines(shown)[1].hasPrefix("   Nothing rated yet: 'marquee rate ID SCORE' rates a movie."))
        _ = shown.handle(.right, visibleRows: 5)
        #expect(lines(shown)[1].hasPrefix("   Nothing logged yet: 'marquee watched ID' logs a viewing."))
        _ = shown.handle(.right, visibleRows: 5)
        #expect(lines(shown)[1].hasPrefix("   No lists yet: 'marquee list create NAME' makes one."))
    }

    @Test("the selection stays on its record when the shelf is read again with a new record above it")
    func selectionFollowsTheRecord() {
        var shown = state()
        _ = shown.handle(.character("4"), visibleRows: 5)
        _ = shown.handle(.down, visibleRows: 5)
        #expect(shown.shelf[.diary]?.selectedRow?.identity == "e1")
        var newer = Self.overview
        newer.diary.insert(.init(entry: "e3", movieID: 6, watchedOn: "2026-11-27", rewatch: false, note: "", title: "Movie 6 (2016)", isPending: false), at: 0)
        var view = WatchlistView(lines: [], pendingChanges: 0, pulledAt: nil, serverHasNone: false)
        view.shelf = newer
        shown.apply(.watchlistShown(view))
        #expect(shown.shelf[.diary]?.selectedRow?.identity == "e1")
        #expect(lines(shown)[1].hasPrefix("   2026-11-27  Movie 6 (2016)"), "the new viewing is on screen at once")
    }

    @Test("Enter on a movie asks for it and opens its page when it arrives; on a list's own line it does nothing; w changes the watchlist; r syncs")
    func keys() {
        var shown = state()
        _ = shown.handle(.character("5"), visibleRows: 5)
        #expect(shown.handle(.enter, visibleRows: 5) == [], "a list is not a movie")
        _ = shown.handle(.down, visibleRows: 5)
        #expect(shown.handle(.enter, visibleRows: 5) == [.cancelMovie, .loadMovie(id: 4)])
        #expect(shown.detail == nil)
        shown.apply(.movieAnswer(id: 9, movie: Sample.ten[8], answer: Answer(source: .store)))
        #expect(shown.detail == nil, "another movie's answer opens nothing")
        shown.apply(.movieAnswer(id: 4, movie: Sample.ten[3], answer: Answer(source: .store)))
        #expect(shown.detail?.movie.id == 4)
        _ = shown.handle(.escape, visibleRows: 5)
        _ = shown.handle(.down, visibleRows: 5)
        #expect(shown.handle(.character("w"), visibleRows: 5) == [.changeWatchlist(movieID: 5, add: true)])
        #expect(shown.handle(.character("r"), visibleRows: 5) == [.syncWatchlist])
        _ = shown.handle(.enter, visibleRows: 5)
        shown.apply(.movieFinished(id: 5, failure: "cannot connect"))
        #expect(shown.detail == nil)
        #expect(shown.notice == "the movie could not be opened: cannot connect")
        _ = shown.handle(.enter, visibleRows: 5)
        _ = shown.handle(.character("3"), visibleRows: 5)
        shown.apply(.movieAnswer(id: 5, movie: Sample.ten[4], answer: Answer(source: .store)))
        #expect(shown.detail == nil, "a movie asked for before the segment changed does not open over the new one")
    }

    @Test("a name or note from the server reaches the screen through the terminal-safe formatter")
    func hostileText() {
        var hostile = Self.overview
        hostile.lists[0].name = "Noir\u{1B}[2J"
        hostile.lists[0].items[0].note = "bell\u{07}"
        var shown = state(hostile)
        _ = shown.handle(.character("5"), visibleRows: 5)
        let drawn = lines(shown).joined()
        #expect(!drawn.contains("\u{1B}"))
        #expect(!drawn.contains("\u{07}"))
    }
}
