import Foundation
import MarqueeTestSupport
import MovieServer
import MovieServerDatabases
import ServerTestSupport
import Testing

/// `marquee catalog import --format imdb DIR` through the real binary, into a SQLite file and a
/// PostgreSQL database, then served.
@Suite("IMDb's data sets into a server database", .postgresCluster)
struct IMDbImportCommandTests {
    let marquee = MarqueeProcess()

    @Test("the films of IMDb's data sets are imported, said with what was left out, and served with their cast; a second import changes nothing", arguments: ServerDatabaseCommandTests.Kind.allCases)
    func imports(kind: ServerDatabaseCommandTests.Kind) async throws {
        let database = try await kind.makeDatabase()
        let folder = try IMDbFixtures.all()
        let first = try await marquee.run(["catalog", "import", "--format", "imdb", folder.path, "--database", database])
        #expect(first.status == 0, "\(first.standardError)")
        #expect(first.standardOutput.contains("Imported 3 movies"), "\(first.standardOutput)")
        #expect(first.standardError.contains("Read 8 titles: 3 movies, 3 with a cast; left out: 1 adult (--adult takes them), 1 no year, 2 not a movie, 1 not a movie (a TV film: --tv-movies takes them)."), "\(first.standardError)")
        let again = try await marquee.run(["catalog", "import", "--format", "imdb", folder.path, "--database", database])
        #expect(again.standardOutput.contains("0 added, 0 changed, 3 unchanged"), "\(again.standardOutput)")

        let (server, port) = try await marquee.serve(["--port", "0", "--database", database])
        try await finally(try await {
            let api = "http://127.0.0.1:\(port)/api/"
            let shown = try await marquee.run(["movie", "111161", "--env", api])
            #expect(shown.status == 0, "\(shown.standardError)")
            #expect(shown.standardOutput.contains("The Shawshank Redemption (1994)"), "\(shown.standardOutput)")
            #expect(shown.standardOutput.contains("Tim Robbins"), "\(shown.standardOutput)")
            for line in ["  Runtime   142 min", "  Genres    Drama", "  Votes     2,900,000 on IMDb", "  IMDb      tt0111161"] {
                #expect(shown.standardOutput.contains(line + "\n"), "\(line): \(shown.standardOutput)")
            }
            let amelie = try await marquee.run(["movie", "211915", "--env", api])
            #expect(amelie.standardOutput.contains("  Original  Le Fabuleux Destin d'Amélie Poulain\n"), "\(amelie.standardOutput)")
            #expect(amelie.standardOutput.contains("  Genres    Comedy, Romance\n"), "\(amelie.standardOutput)")
            let offline = try await marquee.run(["movie", "111161", "--env", api, "--offline"])
            #expect(offline.standardOutput.contains("  Runtime   142 min\n"), "the store keeps the details: \(offline.standardOutput)")
            let json = try await marquee.run(["movie", "111161", "--env", api, "--json"])
            #expect(json.standardOutput.contains(#""imdbId" : "tt0111161""#) || json.standardOutput.contains(#""imdbId":"tt0111161""#), "\(json.standardOutput)")
        }()) {
            _ = await server.signal(SIGTERM)
        }
    }

    @Test("a broken line is one clear line and a non-zero exit, nothing imported; --skip-bad-lines imports the rest and counts it; a cut-short file is refused; --adult is for --format imdb")
    func refusals() async throws {
        let database = TestFolders.temporary.appendingPathComponent("imdb-\(UUID().uuidString).sqlite").path
        var broken = IMDbFixtures.basics
        broken[2] = "tt0111161\tmovie\tThe Shawshank Redemption"
        let folder = try IMDbFixtures.folder(["title.basics.tsv.gz": broken, "title.ratings.tsv.gz": IMDbFixtures.ratings])
        let refused = try await marquee.run(["catalog", "import", "--format", "imdb", folder.path, "--database", database])
        #expect(refused.status != 0)
        #expect(refused.errorLines == ["marquee: title.basics.tsv.gz, line 3: 3 fields, where the layout has 9 (tconst, titleType, primaryTitle, originalTitle, isAdult, startYear, endYear, runtimeMinutes, genres); nothing was imported"], "\(refused.standardError)")
        if FileManager.default.fileExists(atPath: database) {
            let count = try await Self.count(database)
            #expect(count == 0, "nothing imported")
        }

        let skipped = try await marquee.run(["catalog", "import", "--format", "imdb", folder.path, "--database", database, "--skip-bad-lines"])
        #expect(skipped.status == 0, "\(skipped.standardError)")
        #expect(skipped.standardError.contains("1 bad line passed over (the first: title.basics.tsv.gz, line 3:"), "\(skipped.standardError)")
        let imported = try await Self.count(database)
        #expect(imported == 2)

        let whole = try IMDbFixtures.gzip(IMDbFixtures.ratings.joined(separator: "\n") + "\n")
        try whole.prefix(whole.count - 10).write(to: folder.appendingPathComponent("title.ratings.tsv.gz"))
        let cut = try await marquee.run(["catalog", "import", "--format", "imdb", folder.path, "--database", database, "--skip-bad-lines"])
        #expect(cut.status != 0 && cut.errorLines.count == 1 && cut.standardError.contains("title.ratings.tsv.gz: the gzip stream"), "\(cut.standardError)")

        let misplaced = try await marquee.run(["catalog", "import", "catalog.json", "--adult", "--database", database])
        #expect(misplaced.status != 0 && misplaced.standardError.contains("are for --format imdb"), "\(misplaced.standardError)")
    }

    /// How many of the fixtures' three films the database holds.
    static func count(_ database: String) async throws -> Int {
        let storage = try await DatabaseLocation(parsing: database).open(logger: quietLogger)
        return try await finally(try await storage.titles(ofMovies: [68646, 111161, 211915]).count) { await storage.close() }
    }
}
