import MovieBrowser
import MovieContract
import Testing

/// Browse's search line read as words and a filter, and the filter shown under it.
@Suite("Browse's filter line")
struct SearchLineTests {
    @Test("name:value of a known name is a filter, anything else a word; filters alone list the catalogue")
    func reading() {
        let line = SearchLine("alien genre:horror runtime:80-120 Votes:1000 rating:72.5 year:1979-1990 genre:Sci-Fi re:zero")
        #expect(line.words == "alien re:zero")
        #expect(line.filter == MovieFilter(genres: ["Sci-Fi", "Horror"], runtime: 80...120, years: 1979...1990, minimumVotes: 1000, minimumRating: 72.5))
        #expect(line.problem == nil)
        let request = line.request(cursor: "c")
        #expect(request.text == "alien re:zero" && request.cursor == "c" && request.filter == line.filter)
        let listing = SearchLine("genre:drama year:2016")
        #expect(listing.words == nil && listing.year == 2016 && listing.filter.years == nil)
        #expect(listing.request(cursor: nil).effectiveSort == .grossing, "a listing, not a search")
        #expect(SearchLine("zoot").filter.isEmpty)
    }

    @Test("a filter that is not one is the line's problem, said as the API would")
    func problems() {
        #expect(SearchLine("genre:horor").problem?.hasPrefix("There is no genre 'horor': the genres are Action") == true)
        #expect(SearchLine("runtime:120-80").problem?.contains("upside down") == true)
        #expect(SearchLine("votes:-5").problem?.contains("whole number") == true)
    }

    @Test("the screen shows the filter under the words, and the keys say how to type one")
    func layout() {
        var state = BrowserState(apiName: "test", year: 2016)
        _ = state.handle(.character("/"), visibleRows: 5)
        let empty = BrowserLayout(width: 200, height: 12, color: false).lines(for: state, now: Sample.fetchedAt)
        #expect(empty[10].contains("genre:drama runtime:80-120"))
        for character in "the genre:drama runtime:90-" { _ = state.handle(.character(character), visibleRows: 5) }
        let lines = BrowserLayout(width: 100, height: 12, color: false).lines(for: state, now: Sample.fetchedAt)
        #expect(lines[1].hasPrefix(" Search: the genre:drama runtime:90-▏"))
        #expect(lines[2].hasPrefix(" Filter: Drama, 90-60000 minutes"), "\(lines[2])")
        for _ in 0..<19 { _ = state.handle(.backspace, visibleRows: 5) }
        let plain = BrowserLayout(width: 100, height: 12, color: false).lines(for: state, now: Sample.fetchedAt)
        #expect(!plain[2].contains("Filter:"), "no filter, no line")
    }
}
