import Foundation
import GRDB
import MarqueeTestSupport
import MovieContract
import Movies
@testable import MovieServer
@testable import MovieServerSQLite
import ServerTestSupport
import Testing

extension ServerDatabaseTests {
    /// A server's SQLite file from before the search's title and cast columns (`server-v4`) is
    /// migrated in place: every movie is found as before, by title and by cast.
    @Suite("Search after migrating an SQLite file")
    struct SearchMigrationTests {
        @Test("a file at server-v3, its words in one column, answers the 30 queries as the rules give once opened")
        func migratesTheWords() async throws {
            let path = TestFolders.temporary.appendingPathComponent("marquee-v3-\(UUID().uuidString).sqlite").path
            defer { try? FileManager.default.removeItem(atPath: path) }
            let catalog = SearchContract.catalog
            let queue = try DatabaseQueue(path: path)
            try SQLiteSchema.migrator.migrate(queue, upTo: "server-v3-watchlist")
            try await queue.write { db in
                for movie in catalog.movies + [CatalogMovie(name: "!!!", id: 990_001, year: 2013, releaseDate: "2013-01-01", grossing: 1, rating: 1, cast: [.init(name: "Ava Nameless")])] {
                    let indexed = SearchText.Indexed(movie)
                    try db.execute(
                        sql: "INSERT INTO movie (id, name, year, release_date, grossing, rating, title_words, title_key) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                        arguments: [movie.id, movie.name, movie.year, movie.releaseDate, movie.grossing, movie.rating, indexed.titleWords, indexed.titleKey]
                    )
                    try db.execute(sql: "INSERT INTO movie_search (rowid, all_words) VALUES (?, ?)", arguments: [movie.id, indexed.allWords])
                    for (position, actor) in movie.cast.enumerated() {
                        try db.execute(sql: "INSERT INTO actor (name) VALUES (?) ON CONFLICT (name) DO NOTHING", arguments: [actor.name])
                        try db.execute(
                            sql: "INSERT INTO movie_cast (movie_id, position, actor_id) SELECT ?, ?, id FROM actor WHERE name = ?",
                            arguments: [movie.id, position, actor.name]
                        )
                    }
                }
            }
            try queue.close()

            let storage = try await SQLiteStorage(path: path, queryTimeout: generousQueryTimeout, tierReading: .walkingIndex, searchIndexing: .off, logger: quietLogger)
            try await finally(try await withServerClient(storage: storage) { client in
                for query in SearchContract.queries where !query.contains("ava") {
                    #expect(try await SearchContract.walk(client, query, limit: 50) == (try SearchContract.expected(query)), "\(query)")
                }
                let untitled = try await SearchContract.walk(client, "query=nameless", limit: 10)
                #expect(untitled == [990_001], "a movie without title words is found by its cast")
            }) { await storage.close() }
        }
    }
}

extension ServerDatabaseTests.SearchMigrationTests {
    @Test("a first import of many movies drops the order indexes and makes them again, as the migrations define them")
    func bulkImportKeepsTheIndexes() async throws {
        func indexes(_ path: String) throws -> [String] {
            try DatabaseQueue(path: path).read { db in
                try String.fetchAll(db, sql: "SELECT name || ': ' || sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL ORDER BY name")
            }
        }
        let folder = TestFolders.temporary.appendingPathComponent("marquee-bulk-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let empty = try await SQLiteStorage(path: folder.appendingPathComponent("empty.sqlite").path)
        await empty.close()
        let bulk = try await SQLiteStorage(path: folder.appendingPathComponent("bulk.sqlite").path)
        let movies = SyntheticCatalog.movies(count: SQLiteSchema.OrderIndexes.bulkImport, seed: 5)
        _ = try await bulk.importMovies(movies, batchSize: 1000) { _ in }
        let page = try await bulk.search(MovieSearch(words: [], sort: .rating, limit: 3))
        await bulk.close()
        #expect(page.count == 4)
        let expected = try indexes(folder.appendingPathComponent("empty.sqlite").path)
        #expect(expected.contains { $0.hasPrefix("movie_rating: ") })
        #expect(try indexes(folder.appendingPathComponent("bulk.sqlite").path) == expected)
    }
}
