import Foundation
import MarqueeTestSupport
import ServerTestSupport
import Testing

/// `marquee movies` and `search` with `--genre`, `--runtime`, `--min-votes`, `--min-rating` and a
/// span of `--year`, through the real binary against a server whose catalogue came from IMDb's
/// data sets, online and then offline from the store; a bad filter is one clear line.
@Suite("Finding films by genre, runtime, votes, rating and years")
struct MovieFilterCommandTests {
    let marquee = MarqueeProcess()

    @Test("each filter, and several together, keep the films that have them, online and offline")
    func filters() async throws {
        let database = TestFolders.temporary.appendingPathComponent("filters-\(UUID().uuidString).sqlite").path
        let imported = try await marquee.run(["catalog", "import", "--format", "imdb", try IMDbFixtures.all().path, "--database", database])
        try #require(imported.status == 0, "\(imported.standardError)")
        let (server, port) = try await marquee.serve(["--port", "0", "--database", database])
        try await finally(try await {
            let here = try TemporaryConfigHome()
            let api = ["--env", "http://127.0.0.1:\(port)/api/"]
            let cases: [([String], [String], String)] = [
                (["movies", "--genre", "drama"], ["The Shawshank Redemption", "The Godfather"], "Movies of Drama by grossing"),
                (["movies", "--genre", "Comedy", "--genre", "romance"], ["Amélie"], "Movies of Comedy and Romance"),
                (["movies", "--genre", "crime,drama"], ["The Godfather"], "Movies of Crime and Drama"),
                (["movies", "--runtime", "120-150", "--sort", "title"], ["Amélie", "The Shawshank Redemption"], "Movies of 120-150 minutes by title"),
                (["movies", "--runtime", "170-"], ["The Godfather"], "Movies of 170-60000 minutes"),
                (["movies", "--min-votes", "2500000"], ["The Shawshank Redemption"], "Movies of 2500000+ votes"),
                (["movies", "--min-rating", "92.5"], ["The Shawshank Redemption"], "Movies of rated 92.5+"),
                (["movies", "--year", "1970-1999", "--genre", "crime"], ["The Godfather"], "Movies of 1970-1999, Crime"),
                (["search", "the", "--genre", "drama", "--runtime", "150-"], ["The Godfather"], "Movies of Drama, 150-60000 minutes matching 'the'"),
                (["movies", "--genre", "horror"], [], "Movies of Horror"),
            ]
            _ = try await here.marquee.run(["movies"] + api)
            for offline in [false, true] {
                for (arguments, titles, heading) in cases {
                    let run = try await here.marquee.run(arguments + api + (offline ? ["--offline"] : []))
                    #expect(run.status == 0, "\(arguments): \(run.standardError)")
                    let shown = ["The Shawshank Redemption", "The Godfather", "Amélie"].filter { run.standardOutput.contains($0) }
                    #expect(Set(shown) == Set(titles), "\(arguments) offline \(offline): \(run.standardOutput)")
                    if let first = titles.first, titles.count == 2, let second = titles.last,
                       let a = run.standardOutput.range(of: first), let b = run.standardOutput.range(of: second) {
                        #expect(a.lowerBound < b.lowerBound, "\(arguments): in order: \(run.standardOutput)")
                    }
                    #expect(run.standardOutput.contains(heading), "\(arguments): \(run.standardOutput)")
                }
            }
        }()) {
            _ = await server.signal(SIGTERM)
        }
    }

    @Test("an unknown genre, a span upside down, a runtime of -5 or 99999999999, a rating of ten: one clear line and a non-zero exit")
    func badFilters() async throws {
        let here = try TemporaryConfigHome()
        for (arguments, words) in [
            (["movies", "--genre", "Drma"], "there is no genre 'Drma': the genres are Action, Adult, Adventure"),
            (["search", "x", "--runtime", "120-80"], "the runtime span '120-80' is upside down: write the smaller end first (80-120)"),
            (["movies", "--runtime", "-5"], "the runtime '-5' is not one: give a runtime from 1 to 60000 minutes"),
            (["movies", "--runtime", "99999999999"], "the runtime '99999999999' is not one"),
            (["movies", "--year", "1999-1990"], "the year span '1999-1990' is upside down"),
            (["movies", "--min-votes", "-3"], "the least number of votes must be a whole number from 0 to 1000000000"),
            (["movies", "--min-rating", "ten"], "the least rating must be a number from 0 to 100"),
        ] {
            let run = try await here.marquee.run(arguments + ["--offline"])
            #expect(run.status != 0, "\(arguments)")
            let lines = run.standardError.split(separator: "\n").filter { !$0.isEmpty }
            #expect(lines.count == 1 && lines.first?.contains(words) == true, "\(arguments): \(run.standardError)")
        }
    }
}
