import Foundation
import GRDB
import MarqueeTestSupport
import MovieContract
import Movies
import SearchPlanning
import Testing
@testable import MovieStore

/// Offline, the store ranks as the server does: the film a person asks for by its title first.
@Suite("Offline search ranks as people search")
struct StoreRelevanceTests {
    static let movies: [Movie] = RelevanceTable.films.map { film in
        Movie(
            id: film.id, name: film.title, year: film.year, releaseDate: Date(timeIntervalSince1970: 0),
            grossing: film.grossing, rating: 7, cast: [MovieActor(name: "Cast Member \(film.id)")]
        )
    }

    @Test("each search of the table: its film first, whether the store ranks every match or reads a relevance at a time", arguments: [TierReading.bySize, .sortingMatches, .walkingIndex])
    func filmFirst(reading: TierReading) async throws {
        let store = try makeStore()
        try await store.saveMovies(Self.movies, api: Fixtures.api, fetchedAt: Date())
        for (query, first) in RelevanceTable.searches {
            for limit in [1, 3, 50] {
                let found = try await store.search(MovieSearchRequest(text: query), limit: limit, api: Fixtures.api, tierReading: reading)
                #expect(found.movies.first?.name == first, "\(reading) \(limit) '\(query)': \(found.movies.map(\.name))")
            }
        }
    }
}

extension StoreRelevanceTests {
    @Test("a store written before v12 (an article last, initials letters apart, no index of the title words) is migrated on opening")
    func migratesTheWords() async throws {
        let url = TestFolders.temporary.appendingPathComponent("store-\(UUID().uuidString)/movies.sqlite")
        let movies = [
            Fixtures.movie(1, name: "Jungle Book, The", cast: ["Phil Harris"]), Fixtures.movie(2, name: "E.T. the Extra-Terrestrial", cast: ["Henry Thomas"]),
            Fixtures.movie(3, name: "Super 8", cast: ["J.J. Abrams"]), Fixtures.movie(4, name: "Jungle Book 2, The", cast: ["John Goodman"]),
        ]
        do {
            let store = try MovieStore(url: url)
            try await store.saveMovies(movies, api: Fixtures.api, fetchedAt: Date())
        }
        let old: [Int: (String, String)] = [
            1: (" jungle book the ", " phil harris "), 2: (" e t the extra terrestrial ", " henry thomas "),
            3: (" super 8 ", " j j abrams "), 4: (" jungle book 2 the ", " john goodman "),
        ]
        let queue = try DatabaseQueue(path: url.path)
        try await queue.write { db in
            for (id, (title, cast)) in old {
                let rowID = try Int64.fetchOne(db, sql: "SELECT rowid FROM movie WHERE id = ?", arguments: [id])!
                try db.execute(sql: "UPDATE movie SET titleWords = ? WHERE rowid = ?", arguments: [title, rowID])
                try db.execute(sql: "DELETE FROM movieWords WHERE rowid = ?", arguments: [rowID])
                try db.execute(sql: "INSERT INTO movieWords (rowid, titleWords, castWords) VALUES (?, ?, ?)", arguments: [rowID, title, cast])
            }
            try db.execute(sql: "DROP INDEX IF EXISTS movie_on_apiId_titleWords")
            try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier LIKE 'v12:%'")
        }
        try queue.close()

        let store = try MovieStore(url: url)
        for (text, ids) in [("the jungle book", [1, 4]), ("e.t.", [2]), ("jj abrams", [3])] {
            for reading in [TierReading.bySize, .sortingMatches] {
                let found = try await store.search(MovieSearchRequest(text: text), limit: 10, api: Fixtures.api, tierReading: reading)
                #expect(found.movies.map(\.id) == ids, "\(reading) '\(text)'")
            }
        }
    }
}
