import Foundation
import MovieBrowser
import MovieStore
import Movies
import Testing
import TextFormatting

/// A store that keeps nothing this run (damaged, of a newer version…): its problem is on every
/// screen, on lines of its own above the status line (at most three), and the table is shorter for them.
@Suite("Browse: a store that keeps nothing")
struct BrowserStoreProblemTests {
    static let problem = "nothing is kept on this machine this run: the movie store /tmp/movies.sqlite is damaged (file is not a database)"

    func state(problem: String? = Self.problem) -> BrowserState {
        var state = BrowserState(apiName: "test", year: 2016)
        state.storeProblem = problem
        _ = state.start()
        state.apply(.listAnswer(.topGrossing, year: 2016, movies: Sample.ten, answer: Answer(source: .network, fetchedAt: Sample.fetchedAt)))
        state.apply(.listFinished(.topGrossing, year: 2016, failure: nil))
        return state
    }

    @Test("the problem is on the line above the status line, on the lists, a movie's page, the Watchlist segment and the help")
    func everyScreen() {
        let layout = BrowserLayout(width: 120, height: 30, color: false)
        var state = state()
        var screens = [layout.lines(for: state, now: Sample.fetchedAt)]
        _ = state.handle(.enter, visibleRows: 10)
        screens.append(layout.lines(for: state, now: Sample.fetchedAt))
        _ = state.handle(.escape, visibleRows: 10)
        _ = state.handle(.left, visibleRows: 10)
        screens.append(layout.lines(for: state, now: Sample.fetchedAt))
        _ = state.handle(.character("?"), visibleRows: 10)
        screens.append(layout.lines(for: state, now: Sample.fetchedAt))
        for lines in screens {
            #expect(lines.count == 30)
            #expect(lines[27].hasPrefix(" ! " + Self.problem), "\(lines)")
            #expect(!lines[26].hasPrefix(" !"), "one line at 120 columns")
            #expect(lines.allSatisfy { DisplayWidth.of($0) == 120 })
        }
        #expect(screens[0][28].hasPrefix("from the network"), "the status line stays")
    }

    @Test("a problem longer than the line is wrapped at words, in at most three lines, the last cut with …")
    func wrapped() {
        var state = state()
        state.storeProblem = Self.problem + "; move the file away, or start over with: marquee cache clear --store /tmp/movies.sqlite"
        let lines = BrowserLayout(width: 60, height: 24, color: false).lines(for: state, now: Sample.fetchedAt)
        #expect(lines.count == 24)
        #expect(lines[19].hasPrefix(" ! nothing is kept on this machine this run: the movie store"), "\(lines)")
        #expect(lines[20].hasPrefix("   /tmp/movies.sqlite is damaged (file is not a database); "))
        #expect(lines[21].hasPrefix("   move the file away, or start over with: marquee cache … "), "cut where the third line ends")
        #expect(lines[22].hasPrefix("from the network"))
        state.storeProblem = String(repeating: "x", count: 100)
        let long = BrowserLayout(width: 60, height: 24, color: false).lines(for: state, now: Sample.fetchedAt)
        #expect(long.allSatisfy { DisplayWidth.of($0) == 60 }, "a word longer than the line is cut: \(long)")
    }

    @Test("with the warning, the table shows one line fewer: the selected movie's cast stays on screen")
    func fewerRows() throws {
        let layout = BrowserLayout(width: 100, height: 24, color: false)
        #expect(layout.visibleRows(for: state(problem: nil)) == layout.visibleRows)
        #expect(layout.visibleRows(for: state()) == 9)
        var state = state()
        for _ in 0..<8 { _ = state.handle(.down, visibleRows: layout.visibleRows(for: state)) }
        let lines = layout.lines(for: state, now: Sample.fetchedAt)
        let selected = lines.firstIndex { $0.hasPrefix(" › ") }
        let below = try #require(selected.map { lines[$0 + 1] }, "\(lines)")
        #expect(below.contains("Ann Actor"), "\(lines)")
    }
}
