import Foundation
import GRDB
import MarqueeTestSupport
import MovieContract
import Movies
import Testing
@testable import MovieStore

/// Stores written by an earlier Marquee open with everything they held, in the current schema.
@Suite("Store upgrades")
struct StoreUpgradeTests {
    static func copyOfFixture(_ name: String) throws -> URL {
        let fixture = try #require(Bundle.module.url(forResource: name, withExtension: "sqlite", subdirectory: "Fixtures"))
        let folder = TestFolders.temporary.appendingPathComponent("\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent("movies.sqlite")
        try FileManager.default.copyItem(at: fixture, to: url)
        return url
    }

    static func columns(of table: String, in url: URL) throws -> [String] {
        try DatabaseQueue(path: url.path).read { db in try db.columns(in: table).map(\.name) }
    }

    @Test("a v15 store, the last before the shelf, keeps its watchlist (entries, titles, removal, the change still pending) and takes ratings")
    func upgradesVersionFifteen() async throws {
        let url = try Self.copyOfFixture("store-v15")
        #expect(try !Self.tables(in: url).contains("shelfRecord"), "the fixture is a v15 store")
        let api = "https://api.example/api/#alice"
        let upgraded = try MovieStore(url: url)
        let view = try await upgraded.watchlist(api: api)
        #expect(view.lines.map(\.movieID) == [8, 7, 6])
        #expect(view.lines.first { $0.movieID == 6 }?.note == "Friday" && view.lines.first { $0.movieID == 6 }?.title == "Deadpool")
        #expect(view.pendingChanges == 1)
        #expect(try await upgraded.pendingWatchlistChanges(api: api).map(\.movieID) == [8])
        let rating = try await upgraded.recordShelfChange(Ratings.self, key: "6", value: .init(score: 8), api: api)
        #expect(rating.device == (try await upgraded.pendingWatchlistChanges(api: api)).first?.device, "the store's device id is kept")
        #expect(try await upgraded.shelf(Ratings.self, api: api).line("6")?.value.score == 8)
    }

    static func tables(in url: URL) throws -> [String] {
        try DatabaseQueue(path: url.path).read { db in try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'") }
    }

    @Test("a v3 store, whose rows repeat the API's text, reads back exactly as the same data written now, and takes new writes")
    func upgradesVersionThree() async throws {
        let url = try Self.copyOfFixture("store-v3")
        #expect(try Self.columns(of: "movie", in: url).contains("api"), "the fixture is a v3 store")

        let upgraded = try MovieStore(url: url)
        let fresh = try makeStore()
        try await StoreContents.write(to: fresh)
        let upgradedAnswers = try await StoreContents.readAll(from: upgraded)
        #expect(upgradedAnswers == (try await StoreContents.readAll(from: fresh)))

        let statistics = try await upgraded.statistics()
        #expect(statistics.apis.map(\.key) == StoreContents.apis.sorted())
        #expect(statistics.apis.map(\.movies) == [3, 11])
        #expect(statistics.actors == 4)
        #expect(try await upgraded.list(ListQuery(.topGrossing, year: 2016), api: StoreContents.apis[0])?.entityTag == "\"a1b2\"")
        #expect(try await upgraded.movie(id: 3, api: StoreContents.apis[0])?.value.name == "Asked by id")
        #expect(try await upgraded.movie(id: 5, api: StoreContents.apis[1])?.value.name == "Other's five")
        #expect(try await upgraded.checkIntegrity().isEmpty)
        let found = try await upgraded.search(MovieSearchRequest(text: "ASKED by"), limit: nil, api: StoreContents.apis[0])
        #expect(found.movies.map(\.id) == [3], "the movies stored before search existed are indexed by the upgrade")
        #expect(found.searched == statistics.apis.first { $0.key == StoreContents.apis[0] }?.movies, "every stored movie of the API was searched")

        let schema = try await upgraded.pool.read { db in
            (movie: try db.columns(in: "movie").map(\.name), apis: try String.fetchAll(db, sql: "SELECT key FROM api ORDER BY id"),
             foreignKeyViolations: try Row.fetchAll(db, sql: "PRAGMA foreign_key_check").count)
        }
        #expect(!schema.movie.contains("api") && schema.movie.contains("apiId"))
        #expect(schema.apis == StoreContents.apis.sorted())
        #expect(schema.foreignKeyViolations == 0)

        try await upgraded.saveList([Fixtures.movie(13, cast: ["Newcomer"])], for: ListQuery(.topRated, year: 2016), api: StoreContents.apis[0], fetchedAt: StoreContents.written)
        #expect(try await upgraded.list(ListQuery(.topRated, year: 2016), api: StoreContents.apis[0])?.value.map(\.id) == [13])
        #expect(try await upgraded.removeAPI(StoreContents.apis[1]))
        #expect(try await upgraded.statistics().apis.map(\.key) == [StoreContents.apis[0]])
        #expect(try await upgraded.movie(id: 5, api: StoreContents.apis[1]) == nil)
        #expect(try await upgraded.search(MovieSearchRequest(text: "five"), limit: nil, api: StoreContents.apis[1]).movies.isEmpty, "no search row outlives its movie")
        #expect(try await upgraded.checkIntegrity().isEmpty)
    }
}

/// A store of schema v17 (movies with their IMDb details, before the sorts' indexes) takes the
/// genres' bits and its count of movies from the rows it holds.
@Suite("Store upgrades: v18")
struct SortIndexUpgradeTests {
    @Test("a v17 store's movies are found by genre and counted after the upgrade, and new movies are counted as they come")
    func upgradesVersionSeventeen() async throws {
        let url = TestFolders.temporary.appendingPathComponent("v17-\(UUID().uuidString)/movies.sqlite")
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        do {
            let queue = try DatabaseQueue(path: url.path)
            try StoreMigrations.migrator.migrate(queue, upTo: "v17: a movie's details from IMDb's data sets (id, original title, runtime, genres, votes)")
            try await queue.write { db in
                try db.execute(sql: "INSERT INTO api (key) VALUES (?)", arguments: [Fixtures.api])
                for (id, genres) in [(1, "Drama,Sci-Fi"), (2, "Drama"), (3, nil), (4, "Sci-Fi,War")] as [(Int, String?)] {
                    try db.execute(sql: """
                        INSERT INTO movie (apiId, id, name, year, releaseDate, grossing, rating, fetchedAt, titleWords, titleKey, genres)
                        VALUES (1, ?, ?, 2016, '2016-01-01', ?, 5, 0, ?, ?, ?)
                        """, arguments: [id, "Film \(id)", id * 10, " film \(id) ", "film \(id)", genres])
                }
            }
            try queue.close()
        }
        let store = try MovieStore(url: url)
        var sciFi = MovieFilter()
        sciFi.require(genres: ["Sci-Fi"])
        let found = try await store.search(MovieSearchRequest(text: nil, sort: .grossing, filter: sciFi), limit: 10, api: Fixtures.api)
        #expect(found.movies.map(\.id) == [4, 1])
        #expect(found.searched == 4)
        try await store.saveMovies([Fixtures.movie(5), Fixtures.movie(1)], api: Fixtures.api, fetchedAt: Date())
        #expect(try await store.search(MovieSearchRequest(text: "movie"), limit: 10, api: Fixtures.api).searched == 5, "a new movie is counted, one written again is not")
    }
}
