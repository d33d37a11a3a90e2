import Foundation
import MovieBrowser
import Movies
import Testing

@Suite("Browse: a movie's details")
struct BrowserMovieDetailsTests {
    @Test("a movie's page shows what the catalogue knows beside (original title, runtime, genres, votes, IMDb id), through the terminal-safe formatter; a movie without shows none")
    func details() {
        var detailed = Sample.ten[0]
        detailed.details = MovieDetails(imdbID: "tt0211915", originalTitle: "Le Fabuleux\u{1B}[2J Destin", runtimeMinutes: 122, genres: ["Comedy", "Romance"], votes: 750_000)
        var state = BrowserState(apiName: "test", year: 2016)
        _ = state.start()
        state.apply(.listAnswer(.topGrossing, year: 2016, movies: [detailed] + Sample.ten.dropFirst(), answer: Answer(source: .network, fetchedAt: Sample.fetchedAt)))
        _ = state.handle(.enter, visibleRows: 10)
        let page = BrowserLayout(width: 80, height: 24, color: false).lines(for: state, now: Sample.fetchedAt)
        for line in [" Original  Le Fabuleux\u{FFFD}[2J Destin", " Runtime   122 min", " Genres    Comedy, Romance", " Votes     750,000 on IMDb", " IMDb      tt0211915"] {
            #expect(page.contains { $0.hasPrefix(line) }, "\(line): \(page)")
        }
        #expect(!page.joined().contains("\u{1B}"))
        _ = state.handle(.escape, visibleRows: 10)
        _ = state.handle(.down, visibleRows: 10)
        _ = state.handle(.enter, visibleRows: 10)
        let plain = BrowserLayout(width: 80, height: 24, color: false).lines(for: state, now: Sample.fetchedAt)
        #expect(!plain.contains { $0.hasPrefix(" Runtime") || $0.hasPrefix(" IMDb") })
    }
}
