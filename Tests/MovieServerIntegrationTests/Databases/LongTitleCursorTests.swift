import Foundation
import MovieContract
import Movies
import MovieServer
import Testing

extension ServerDatabaseTests {
    /// Every page the server links to is one it accepts, whatever the titles and the query hold.
    @Suite("Cursors of long titles and long queries")
    struct LongTitleCursorTests {
        /// Titles of 500 to 6,000 code points, many of them four UTF-8 bytes, quotes and slashes
        /// (escaped in JSON), and pairs alike in their first hundred code points.
        static let catalog: Catalog = {
            let alphabets = ["a", "é", "語", "🎬", "\"", "/", "\\"]
            var movies: [CatalogMovie] = []
            for id in 1...40 {
                let length = [500, 650, 1000, 6000][id % 4]
                let unit = alphabets[id % alphabets.count]
                let prefix = id % 5 == 0 ? "Same beginning " : "Movie \(id) "
                let name = prefix + String(repeating: unit, count: length) + " \(id)"
                movies.append(CatalogMovie(
                    name: name, id: id, year: 2016, releaseDate: "2016-01-01",
                    grossing: id * 1000, rating: 50, cast: [CatalogMovie.Actor(name: "Cast " + String(repeating: unit, count: 50))]
                ))
            }
            return try! Catalog(movies: movies, source: "long titles")
        }()

        @Test("sorted by title a movie a page, every cursor is at most 1,024 characters and accepted; each movie once", arguments: Backend.allCases)
        func walkByTitle(backend: Backend) async throws {
            try await backend.withStorage(holding: Self.catalog) { storage in
                try await withServerClient(storage: storage) { client in
                    for query in ["sort=title", "sort=title&order=desc", "year=2016&sort=title", "query=same&sort=title"] {
                        let ids = try await SearchContract.walk(client, query, limit: 1, catalogSize: Self.catalog.movies.count) { cursor in
                            #expect(cursor.utf8.count <= 1024, "\(backend) \(query): a cursor of \(cursor.utf8.count)")
                        }
                        let expected = query.hasPrefix("query=same") ? 8 : 40
                        #expect(ids.count == expected, "\(backend) \(query)")
                        #expect(Set(ids).count == ids.count, "\(backend) \(query): a movie twice")
                    }
                }
            }
        }

        @Test("a query of 200 three-byte code points gets cursors within 1,024 characters, and they are accepted", arguments: Backend.allCases)
        func longQuery(backend: Backend) async throws {
            let movies = (1...3).map { id in
                CatalogMovie(name: String(repeating: "語", count: 300) + " \(id)", id: id, year: 2016, releaseDate: "2016-01-01", grossing: id, rating: 50, cast: [])
            }
            let query = String(repeating: "語", count: 200).addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
            try await backend.withStorage(holding: try Catalog(movies: movies, source: "long query")) { storage in
                try await withServerClient(storage: storage) { client in
                    let ids = try await SearchContract.walk(client, "query=\(query)&sort=title", limit: 1, catalogSize: 3) { cursor in
                        #expect(cursor.utf8.count <= 1024, "\(backend): a cursor of \(cursor.utf8.count)")
                    }
                    #expect(ids == [1, 2, 3], "\(backend)")
                }
            }
        }
    }
}
