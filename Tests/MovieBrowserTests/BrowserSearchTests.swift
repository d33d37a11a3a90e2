import Foundation
import MovieBrowser
import Movies
import Testing

/// The search opened with `/`: typing, results, more pages, opening a movie and going back.
@Suite("Browser search")
struct BrowserSearchTests {
    func typing(_ text: String, into state: inout BrowserState) -> [BrowserEffect] {
        text.reduce(into: [BrowserEffect]()) { effects, character in effects = state.handle(.character(character), visibleRows: 5) }
    }

    @Test("/ opens the search; each key asks for the words so far; no words is no search; Esc goes back to the lists")
    func typingAndLeaving() {
        var state = BrowserState(apiName: "test", year: 2016)
        #expect(state.handle(.character("/"), visibleRows: 5).isEmpty)
        #expect(state.search == SearchPane())
        #expect(typing("zo", into: &state) == [.search("zo")])
        #expect(state.search?.results.answer.isRefreshing == true)
        #expect(state.handle(.backspace, visibleRows: 5) == [.search("z")])
        #expect(state.handle(.backspace, visibleRows: 5) == [.cancelSearch])
        #expect(state.handle(.character("q"), visibleRows: 5) == [.search("q")], "q is a letter of the words here, not quit")
        #expect(state.handle(.escape, visibleRows: 5) == [.cancelSearch])
        #expect(state.search == nil)
    }

    @Test("answers for other words are dropped; Enter opens the selected movie and Esc comes back to the results")
    func answersAndOpening() {
        var state = BrowserState(apiName: "test", year: 2016)
        _ = state.handle(.character("/"), visibleRows: 5)
        _ = typing("zoot", into: &state)
        let stored = Answer(source: .searched(records: 30))
        state.apply(.searchAnswer(text: "zoo", movies: [Sample.movie(1)], next: nil, answer: stored, appending: false))
        #expect(state.search?.results.movies.isEmpty == true, "the answer for words no longer typed")
        state.apply(.searchAnswer(text: "zoot", movies: [Sample.movie(7, name: "Zootopia")], next: nil, answer: stored, appending: false))
        #expect(state.search?.results.movies.map(\.name) == ["Zootopia"])
        #expect(state.search?.results.answer.source == .searched(records: 30))
        #expect(state.handle(.enter, visibleRows: 5) == [.loadMovie(id: 7)])
        #expect(state.detail?.movie.name == "Zootopia")
        #expect(state.handle(.escape, visibleRows: 5) == [.cancelMovie])
        #expect(state.detail == nil && state.search?.text == "zoot", "back to the results, not to the lists")
    }

    @Test("reaching the last row asks once for the next page, which is added")
    func morePages() {
        var state = BrowserState(apiName: "test", year: 2016)
        _ = state.handle(.character("/"), visibleRows: 5)
        _ = typing("the", into: &state)
        state.apply(.searchAnswer(text: "the", movies: Array(Sample.ten.prefix(3)), next: "c1", answer: Answer(source: .network), appending: false))
        #expect(state.handle(.down, visibleRows: 5).isEmpty)
        #expect(state.handle(.end, visibleRows: 5) == [.searchMore("the", cursor: "c1")])
        #expect(state.handle(.down, visibleRows: 5).isEmpty, "asked once while it loads")
        state.apply(.searchAnswer(text: "the", movies: Array(Sample.ten.dropFirst(3).prefix(3)), next: nil, answer: Answer(source: .network), appending: true))
        #expect(state.search?.results.movies.count == 6)
        #expect(state.handle(.end, visibleRows: 5).isEmpty, "no next page")
    }

    @Test("the screen shows the words, the results and where they came from; the keys of the search")
    func layout() {
        var state = BrowserState(apiName: "test", year: 2016)
        _ = state.handle(.character("/"), visibleRows: 5)
        let empty = BrowserLayout(width: 100, height: 12, color: false).lines(for: state, now: Sample.fetchedAt)
        #expect(empty[1].hasPrefix(" Search: ▏"))
        #expect(empty[10].hasPrefix("type words of a title or of a cast"))
        #expect(empty[11].hasPrefix("type to search · ↑/↓ move · Enter open · Esc back to the lists"))
        _ = typing("zoot", into: &state)
        state.apply(.searchAnswer(text: "zoot", movies: [Sample.movie(7, name: "Zootopia")], next: nil, answer: Answer(source: .searched(records: 30)), appending: false))
        let found = BrowserLayout(width: 100, height: 12, color: false).lines(for: state, now: Sample.fetchedAt)
        #expect(found[1].hasPrefix(" Search: zoot▏"))
        #expect(found.contains { $0.contains("Zootopia") })
        #expect(found[10].hasPrefix("searched 30 stored movies offline — not the server's results"))
    }
}
