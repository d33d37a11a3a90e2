import Foundation
import MovieBrowser
import MovieStore
import Movies
import Testing
import TextFormatting

@Suite("Browser layout")
struct BrowserLayoutTests {
    let now = Sample.fetchedAt.addingTimeInterval(180)

    func state(_ movies: [Movie] = Sample.ten, answer: Answer = Answer(source: .network, fetchedAt: Sample.fetchedAt)) -> BrowserState {
        var state = BrowserState(apiName: "the embedded API", year: 2016)
        _ = state.start()
        state.apply(.listAnswer(.topGrossing, year: 2016, movies: movies, answer: answer))
        state.apply(.listFinished(.topGrossing, year: 2016, failure: nil))
        return state
    }

    func lines(_ state: BrowserState, width: Int, height: Int = 12, color: Bool = false) -> [String] {
        BrowserLayout(width: width, height: height, color: color).lines(for: state, now: now)
    }

    @Test("every line is exactly as wide as the terminal, and there are exactly as many as its rows")
    func exactSize() {
        for width in [40, 57, 80, 100, 120] {
            for height in [8, 12, 30] {
                let drawn = lines(state(), width: width, height: height)
                #expect(drawn.count == height)
                #expect(drawn.allSatisfy { DisplayWidth.of($0) == width }, "\(width)×\(height)")
            }
        }
    }

    @Test("columns drop as the width shrinks: all at 120, no grossing at 80, title and rank only at 40")
    func columnsByWidth() {
        #expect(lines(state(), width: 120)[1] == "    #  Movie" + String(repeating: " ", count: 74) + "Released" + String(repeating: " ", count: 10) + "Grossing  Rating")
        #expect(lines(state(), width: 120)[2] == " ›  1  Movie 1 (2016)" + String(repeating: " ", count: 65) + "2016-01-02      $1,000,000     1.5")
        #expect(lines(state(), width: 80)[1] == "    #  Movie" + String(repeating: " ", count: 50) + "Released    Rating")
        #expect(lines(state(), width: 80)[2] == " ›  1  Movie 1 (2016)" + String(repeating: " ", count: 41) + "2016-01-02     1.5")
        #expect(lines(state(), width: 40)[1] == "    #  Movie" + String(repeating: " ", count: 28))
        #expect(lines(state(), width: 40)[2] == " ›  1  Movie 1 (2016)" + String(repeating: " ", count: 19))
        #expect(lines(state(), width: 40)[3] == "       Ann Actor, Bob Actor" + String(repeating: " ", count: 13))
    }

    @Test("ranks of 100 and over are shown whole, in the lists and in search results: the rank column is as wide as the highest rank")
    func wideRanks() {
        let many = (1...120).map { Sample.movie($0) }
        var list = state(many)
        _ = list.handle(.end, visibleRows: 4)
        let drawn = lines(list, width: 80, height: 12)
        #expect(drawn[1].hasPrefix("     #  Movie"), "\(drawn[1])")
        #expect(drawn.contains { $0.hasPrefix(" › 120  Movie 120 (2016)") }, "\(drawn)")
        #expect(!drawn.contains { $0.contains("1…") })

        var search = state()
        _ = search.handle(.character("/"), visibleRows: 4)
        _ = search.handle(.character("m"), visibleRows: 4)
        search.apply(.searchAnswer(text: "m", movies: many, next: nil, answer: Answer(source: .network, fetchedAt: Sample.fetchedAt), appending: false))
        _ = search.handle(.end, visibleRows: 4)
        let found = lines(search, width: 80, height: 12)
        #expect(found.contains { $0.hasPrefix(" › 120  Movie 120 (2016)") }, "\(found)")
        #expect(found.contains { $0.hasPrefix("   119  Movie 119 (2016)") }, "\(found)")
        #expect(lines(state(), width: 80)[2].hasPrefix(" ›  1  Movie 1 (2016)"), "a short list keeps its two-column ranks")
    }

    @Test("the title shows the six segments, the selected one marked, the API and the year; short names, then the selected one alone, as the terminal narrows; the year outlasts the API's name")
    func title() {
        var shown = state()
        #expect(lines(shown, width: 120)[0] == " [Top grossing]  Top rated   Ratings   Diary   Lists   Watchlist" + String(repeating: " ", count: 27) + "the embedded API · Year 2016 ")
        _ = shown.handle(.right, visibleRows: 4)
        #expect(lines(shown, width: 80)[0] == "  Top grossing  [Top rated]  Ratings   Diary   Lists   Watchlist      Year 2016 ")
        #expect(lines(shown, width: 70)[0] == "  Grossing  [Rated]  Stars   Diary   Lists   Watch          Year 2016 ")
        #expect(lines(shown, width: 40)[0] == " ‹ [Top rated] 2/6 ›          Year 2016 ")
        _ = shown.handle(.character("4"), visibleRows: 4)
        #expect(lines(shown, width: 40)[0] == " ‹ [Diary] 4/6 ›              Year 2016 ")
    }

    @Test("the Watchlist segment lists each movie with its note, pending changes marked, and says how many wait")
    func watchlistSegment() {
        var shown = state()
        _ = shown.handle(.left, visibleRows: 4)
        shown.apply(.watchlistShown(WatchlistView(lines: [
            WatchlistView.Line(movieID: 2, note: "Friday", changedAt: 3, pending: .adding, movie: Sample.ten[1]),
            WatchlistView.Line(movieID: 1, note: "", changedAt: 2, pending: nil, movie: Sample.ten[0]),
            WatchlistView.Line(movieID: 42, note: "", changedAt: 1, pending: .removing),
        ], pendingChanges: 2, pulledAt: nil, serverHasNone: false)))
        shown.apply(.watchlistSynced(status: "not synced: cannot connect"))
        let screen = lines(shown, width: 80)
        #expect(screen[1] == "   Id  Movie                              Note" + String(repeating: " ", count: 34))
        #expect(screen[2].hasPrefix(" ›  2  Movie 2 (2016)                     Friday  [pending]"))
        #expect(screen[3].hasPrefix("    1  Movie 1 (2016)"))
        #expect(screen[4].hasPrefix("   42  movie 42 (title not fetched)         [removal pending]"))
        #expect(screen[screen.count - 2].hasPrefix("2 movies on the watchlist, 2 pending · not synced: cannot connect"))
        #expect(screen[screen.count - 1].hasPrefix("←/→ switch · ↑/↓ move · Enter open · w remove · r sync"))
    }

    @Test("wide characters keep the columns after them aligned")
    func wideCharacters() {
        let movies = [Sample.movie(1, name: "千と千尋の神隠し"), Sample.movie(2, name: "Heat")]
        let drawn = lines(state(movies), width: 80)
        #expect(drawn[2].hasSuffix("2016-01-02     1.5"))
        #expect(drawn[4].hasSuffix("2016-01-03     2.5"))
        #expect(DisplayWidth.of(drawn[2]) == 80)
        let narrow = lines(state([Sample.movie(1, name: String(repeating: "長", count: 40))]), width: 40)
        #expect(narrow[2].hasSuffix("…"))
        #expect(DisplayWidth.of(narrow[2]) <= 40)
    }

    @Test("the status line says which answer is on screen, for each source")
    func statusLines() {
        func status(_ answer: Answer) -> String {
            lines(state(answer: answer), width: 120)[10].trimmingCharacters(in: .whitespaces)
        }
        #expect(status(Answer(source: .network, fetchedAt: now.addingTimeInterval(-2))) == "from the network, just now")
        #expect(status(Answer(source: .store, fetchedAt: Sample.fetchedAt)) == "from the local store, fetched 3 minutes ago")
        #expect(status(Answer(source: .store, fetchedAt: Sample.fetchedAt, failure: "cannot connect to 127.0.0.1:9"))
            == "from the local store, fetched 3 minutes ago — not refreshed: cannot connect to 127.0.0.1:9")
        #expect(status(Answer(source: .derived(records: 4), fetchedAt: Sample.fetchedAt))
            == "derived from 4 stored movies of 2016, fetched 3 minutes ago — not the server's list")
        var refreshing = state(answer: Answer(source: .store, fetchedAt: Sample.fetchedAt))
        _ = refreshing.handle(.character("r"), visibleRows: 4)
        #expect(lines(refreshing, width: 120)[10].trimmingCharacters(in: .whitespaces) == "from the local store, fetched 3 minutes ago — refreshing…")
        var empty = BrowserState(apiName: "api", year: 2016)
        _ = empty.start()
        #expect(lines(empty, width: 80)[10].trimmingCharacters(in: .whitespaces) == "asking the network…")
        #expect(lines(empty, width: 80)[2].trimmingCharacters(in: .whitespaces) == "Loading…")
    }

    @Test("the table scrolls with the selection: two lines a movie, the selected one marked")
    func scrolling() {
        var shown = state()
        let layout = BrowserLayout(width: 40, height: 12, color: false)
        #expect(layout.visibleRows == 4)
        _ = shown.handle(.end, visibleRows: layout.visibleRows)
        let drawn = layout.lines(for: shown, now: now)
        #expect(drawn[2].hasPrefix("    7  Movie 7 (2016)"))
        #expect(drawn[8].hasPrefix(" › 10  Movie 10 (2016)"))
    }

    @Test("the details show the whole cast; the help lists the keys")
    func detailAndHelp() {
        var shown = state([Sample.movie(1, cast: ["Ann Actor", "Bob Actor", "Cid Actor"])])
        _ = shown.handle(.enter, visibleRows: 4)
        let detail = lines(shown, width: 60, height: 16)
        #expect(detail[1].hasPrefix(" Movie 1 (2016)"))
        #expect(detail[3].hasPrefix(" Released  2016-01-02"))
        #expect(detail[4].hasPrefix(" Grossing  $1,000,000"))
        #expect(detail[6].hasPrefix(" Id        1  (marquee movie 1)"))
        #expect(detail[7].hasPrefix(" Watchlist not on your watchlist (w adds it)"))
        #expect(detail[12].hasPrefix("   3. Cid Actor"))
        #expect(detail[15].hasPrefix("Esc back"))
        _ = shown.handle(.character("?"), visibleRows: 4)
        #expect(lines(shown, width: 80, height: 20).contains { $0.hasPrefix("   Enter          open the selected movie") })
    }

    @Test("without color no escape sequence is drawn; with it, the selection is in reverse video and the cast dimmed")
    func color() {
        let plain = lines(state(), width: 80)
        #expect(!plain.joined().contains("\u{1B}"))
        let colored = lines(state(), width: 80, color: true)
        #expect(colored[2].hasPrefix("\u{1B}[7m"))
        #expect(colored[3].hasPrefix("\u{1B}[2m"))
        #expect(colored[0].contains("\u{1B}[7m Top grossing \u{1B}[0m"))
    }

    @Test("names with escape codes are drawn inert")
    func hostileNames() {
        let drawn = lines(state([Sample.movie(1, name: "Evil\u{1B}[2J\u{1B}]0;pwned\u{07}", cast: ["\u{9B}31mRed"])]), width: 80)
        #expect(!drawn.joined().contains("\u{1B}"))
        #expect(!drawn.joined().contains("\u{9B}"))
        #expect(drawn[2].contains("Evil�[2J�]0;pwned�"))
    }

    @Test("a terminal smaller than 40×8 gets a request to enlarge it, at its own size")
    func tooSmall() {
        let drawn = lines(state(), width: 30, height: 5)
        #expect(drawn.count == 5)
        #expect(drawn[0].trimmingCharacters(in: .whitespaces) == "Terminal too small: need 40×8", "the whole request, in the words that fit")
        #expect(drawn.allSatisfy { DisplayWidth.of($0) == 30 })
        #expect(lines(state(), width: 16, height: 5)[0].trimmingCharacters(in: .whitespaces) == "Too small: 40×8")
        #expect(lines(state(), width: 4, height: 5)[0] == "40×8")
    }

    @Test("a narrow terminal's key line keeps q quit and ? keys, dropping the least needed keys first", arguments: [60, 45, 40])
    func narrowKeyLine(width: Int) {
        let keyLine = lines(state(), width: width, height: 12).last!.trimmingCharacters(in: .whitespaces)
        #expect(keyLine.hasSuffix("? keys · q quit"), "\(width): \(keyLine)")
        #expect(DisplayWidth.of(keyLine) <= width)
        #expect(lines(state(), width: 100, height: 12).last!.contains("r refresh"), "a wide terminal shows them all")
    }
}
