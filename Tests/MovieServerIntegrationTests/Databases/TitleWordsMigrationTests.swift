import Foundation
import GRDB
import MarqueeTestSupport
import MovieContract
import MovieServerDatabases
import Movies
@testable import MovieServer
import PostgresNIO
import ServerTestSupport
import Testing

extension ServerDatabaseTests {
    /// A database written before `server-v10-title-words` holds the old words (an article written
    /// last stays last, dotted initials are letters apart) and no index of the title words: opened
    /// again, it is migrated, and its movies are found as people say their titles.
    @Suite("Title words after migrating a database")
    struct TitleWordsMigrationTests {
        static let catalog = try! Catalog(movies: [
            CatalogMovie(name: "Jungle Book, The", id: 1, year: 1967, releaseDate: "1967-10-18", grossing: 141_000_000, rating: 76, cast: [.init(name: "Phil Harris")]),
            CatalogMovie(name: "E.T. the Extra-Terrestrial", id: 2, year: 1982, releaseDate: "1982-06-11", grossing: 792_000_000, rating: 79, cast: [.init(name: "Henry Thomas")]),
            CatalogMovie(name: "Super 8", id: 3, year: 2011, releaseDate: "2011-06-10", grossing: 260_000_000, rating: 70, cast: [.init(name: "J.J. Abrams")]),
            CatalogMovie(name: "Jungle Book 2, The", id: 4, year: 2003, releaseDate: "2003-02-14", grossing: 186_000_000, rating: 54, cast: [.init(name: "John Goodman")]),
            CatalogMovie(name: "Eternals", id: 5, year: 2021, releaseDate: "2021-11-05", grossing: 402_000_000, rating: 63, cast: [.init(name: "Gemma Chan")]),
        ], source: "title words migration")

        /// The words each movie had before: (title words, cast words).
        static let oldWords: [Int: (String, String)] = [
            1: (" jungle book the ", " phil harris "), 2: (" e t the extra terrestrial ", " henry thomas "),
            3: (" super 8 ", " j j abrams "), 4: (" jungle book 2 the ", " john goodman "), 5: (" eternals ", " gemma chan "),
        ]

        @Test("opened again, a database with the old words finds 'the jungle book', 'e.t.' and 'jj abrams'", arguments: Backend.databases)
        func migratesTheWords(backend: Backend) async throws {
            let url = backend == .postgres ? try await PostgresCluster.required().makeDatabase() : nil
            let location = if let url { try DatabaseLocation(parsing: url) } else { try await backend.makeLocation() }
            let first = try await location.open(logger: quietLogger, queryTimeout: generousQueryTimeout, tierReading: .bySize, searchIndexing: .off)
            _ = try await first.importMovies(Self.catalog.movies, batchSize: 100) { _ in }
            await first.close()
            try await Self.writeOldWords(at: location, postgres: url)

            let storage = try await location.open(logger: quietLogger, queryTimeout: generousQueryTimeout, tierReading: .bySize, searchIndexing: .off)
            try await finally(try await withServerClient(storage: storage) { client in
                let jungle = try await SearchContract.walk(client, "query=the%20jungle%20book", limit: 10)
                #expect(jungle == [1, 4], "\(backend): the whole title first")
                let initials = try await SearchContract.walk(client, "query=e.t.", limit: 10)
                #expect(initials == [2, 5], "\(backend): E.T. whole, Eternals begins with the letters")
                let cast = try await SearchContract.walk(client, "query=jj%20abrams", limit: 10)
                #expect(cast == [3], "\(backend): a cast name's initials too")
            }) { await storage.close() }
        }

        /// Puts the old words back, and the schema as it was before the step.
        static func writeOldWords(at location: DatabaseLocation, postgres url: String?) async throws {
            if let url {
                try await PostgresCluster.required().withSession(on: url) { connection in
                    for (id, (title, cast)) in oldWords {
                        let all = title + cast.dropFirst()
                        try await connection.query("UPDATE movie SET title_words = \(title), all_words = \(String(all)) WHERE id = \(id)", logger: quietLogger)
                    }
                    try await connection.query("DROP INDEX movie_title_words", logger: quietLogger)
                    try await connection.query("DELETE FROM marquee_schema_migration WHERE name = 'server-v10-title-words'", logger: quietLogger)
                }
                return
            }
            switch location {
            case let .sqlite(path):
                let queue = try DatabaseQueue(path: path)
                try await queue.write { db in
                    for (id, (title, cast)) in oldWords {
                        try db.execute(sql: "UPDATE movie SET title_words = ? WHERE id = ?", arguments: [title, id])
                        try db.execute(sql: "DELETE FROM movie_words WHERE rowid = ?", arguments: [id])
                        try db.execute(sql: "INSERT INTO movie_words (rowid, title_words, cast_words) VALUES (?, ?, ?)", arguments: [id, title, cast])
                    }
                    try db.execute(sql: "DROP INDEX movie_title_words")
                    try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier = 'server-v10-title-words'")
                }
                try queue.close()
            case .postgres:
                break
            }
        }
    }
}
