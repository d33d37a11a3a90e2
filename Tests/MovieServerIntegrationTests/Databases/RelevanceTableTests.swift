import Foundation
import MarqueeTestSupport
import MovieContract
import Movies
@testable import MovieServer
import SearchPlanning
import Testing

extension ServerDatabaseTests {
    /// The film a person asks for by its title comes first, on every backend: a whole title, then
    /// titles that begin with the words, then titles that hold them; within each, the sort.
    @Suite("Search ranks as people search")
    struct RelevanceTableTests {
        static let catalog: Catalog = try! Catalog(
            movies: RelevanceTable.films.map { film in
                CatalogMovie(
                    name: film.title, id: film.id, year: film.year, releaseDate: "\(film.year)-06-01", grossing: film.grossing,
                    rating: 70, cast: [CatalogMovie.Actor(name: "Cast Member \(film.id)")]
                )
            },
            source: "relevance table"
        )

        static func title(_ id: Int) -> String? { RelevanceTable.films.first { $0.id == id }?.title }

        @Test("each search of the table: its film first, and every page after it holds each match once", arguments: Backend.allCases)
        func filmFirst(backend: Backend) async throws {
            try await backend.withStorage(holding: Self.catalog) { storage in
                try await withServerClient(storage: storage) { client in
                    for (query, first) in RelevanceTable.searches {
                        let whole = try await SearchContract.walk(client, "query=\(RelevanceTable.escaped(query))", limit: 100, catalogSize: Self.catalog.movies.count)
                        #expect(whole.first.flatMap(Self.title) == first, "\(backend) '\(query)': \(whole.compactMap(Self.title))")
                        let paged = try await SearchContract.walk(client, "query=\(RelevanceTable.escaped(query))", limit: 1, catalogSize: Self.catalog.movies.count)
                        #expect(paged == whole, "\(backend) '\(query)' a movie a page")
                    }
                }
            }
        }

        @Test(
            "read a relevance at a time, each sorted or walked, the databases put the table's film first",
            arguments: Backend.databases, [TierReading.sortingMatches, .walkingIndex, .bySizeWalkingFirst(2)]
        )
        func filmFirstByTiers(backend: Backend, reading: TierReading) async throws {
            try await backend.withStorage(holding: Self.catalog, tierReading: reading) { storage in
                try await withServerClient(storage: storage) { client in
                    for (query, first) in RelevanceTable.searches {
                        for limit in [1, 3] {
                            let found = try await SearchContract.walk(client, "query=\(RelevanceTable.escaped(query))", limit: limit, catalogSize: Self.catalog.movies.count)
                            #expect(found.first.flatMap(Self.title) == first, "\(backend) \(reading) '\(query)': \(found.compactMap(Self.title))")
                            #expect(Set(found).count == found.count, "\(backend) \(reading) '\(query)': a movie twice")
                        }
                    }
                }
            }
        }

        @Test("a title's relevance: the whole title, then one that begins with the whole words, then with their letters, then one that holds them", arguments: Backend.allCases)
        func relevanceOrder(backend: Backend) async throws {
            try await backend.withStorage(holding: Self.catalog) { storage in
                try await withServerClient(storage: storage) { client in
                    let found = try await SearchContract.walk(client, "query=alien", limit: 100, catalogSize: Self.catalog.movies.count).compactMap(Self.title)
                    #expect(found == ["Alien", "Alien: Covenant", "Aliens", "Cowboys & Aliens"], "\(backend): Aliens grossed more than Alien: Covenant, which begins with the whole word")
                    let up = try await SearchContract.walk(client, "query=up&sort=rating", limit: 100, catalogSize: Self.catalog.movies.count).compactMap(Self.title)
                    #expect(up == ["Up", "Up: The Return", "Upgrade", "Grown Ups"], "\(backend): the relevances stand under any sort")
                }
            }
        }
    }
}
