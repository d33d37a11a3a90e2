import Foundation
import MarqueeTestSupport
import MovieContract
@testable import MovieServer
import Testing

extension ServerDatabaseTests {
    /// `GET /api/movies/suggestions` on every backend: the typos on a catalogue built for
    /// them, no suggestion where none is meant, the search's refusals, and a clear answer while a
    /// database's index is not there.
    @Suite("Did you mean on every backend")
    struct SuggestionContractTests {
        static let catalog = try! Catalog(movies: SuggestionCatalogue.entries.map { entry in
            CatalogMovie(
                name: entry.title, id: entry.id, year: entry.year, releaseDate: "\(entry.year)-01-01",
                grossing: 1_000 * entry.id, rating: 50, cast: entry.cast.map(CatalogMovie.Actor.init)
            )
        }, source: "suggestion test")

        private func path(_ query: String, year: Int? = nil) -> String {
            "/api/movies/suggestions?query=" + query.addingPercentEncoding(withAllowedCharacters: .alphanumerics)! + (year.map { "&year=\($0)" } ?? "")
        }

        private func answer(_ client: ServerClient, _ query: String, year: Int? = nil) async throws -> SuggestionWire.Answer {
            let answer = try await client.get(path(query, year: year))
            try #require(answer.status == 200, "\(query): \(answer.status) \(String(decoding: answer.body, as: UTF8.self))")
            return try JSONDecoder().decode(SuggestionWire.Answer.self, from: answer.body)
        }

        @Test("the issue's typos are suggested, and nothing where nothing is meant", arguments: Backend.allCases)
        func typos(backend: Backend) async throws {
            try await backend.withStorage(holding: Self.catalog, searchIndexing: .inProcess) { storage in
                _ = await (storage as? any SearchIndexed)?.searchIndexReady()
                try await withServerClient(storage: storage) { client in
                    for typo in SuggestionCatalogue.typos {
                        let found = try await answer(client, typo.typed)
                        #expect(found == SuggestionWire.Answer(suggestion: SearchSuggestion(query: typo.query, year: typo.year, movies: typo.movies)), "\(backend) \(typo.typed)")
                        let search = try await client.get("/api/movies?query=" + typo.query.replacingOccurrences(of: " ", with: "%20") + (typo.year.map { "&year=\($0)" } ?? ""))
                        #expect((search.json?["movies"] as? [Any])?.count == typo.movies, "\(backend) \(typo.typed): the suggestion finds what it says")
                    }
                    for query in SuggestionCatalogue.withoutSuggestion {
                        #expect(try await answer(client, query) == SuggestionWire.Answer(suggestion: nil), "\(backend) \(query)")
                    }
                    #expect(try await answer(client, "zootopa", year: 2016).suggestion?.year == 2016)
                    #expect(try await answer(client, "***") == SuggestionWire.Answer(suggestion: nil), "no words: nothing to suggest")
                }
            }
        }

        @Test("a bad request is a 400 as for a search, never a 500", arguments: Backend.allCases)
        func refusals(backend: Backend) async throws {
            try await backend.withStorage(holding: Self.catalog, searchIndexing: .inProcess) { storage in
                try await withServerClient(storage: storage) { client in
                    for bad in [
                        "/api/movies/suggestions", "/api/movies/suggestions?query=", "/api/movies/suggestions?query=%20",
                        "/api/movies/suggestions?query=" + String(repeating: "a", count: 201),
                        "/api/movies/suggestions?query=" + Array(repeating: "a", count: 13).joined(separator: "%20"),
                        "/api/movies/suggestions?query=a&query=b", "/api/movies/suggestions?query=a&limit=3",
                        "/api/movies/suggestions?query=a&year=0", "/api/movies/suggestions?query=a&year=20166",
                    ] {
                        let answer = try await client.get(bad)
                        #expect(answer.status == 400, "\(backend) \(bad): \(answer.status)")
                        #expect(answer.json?["error"] != nil, "\(bad)")
                    }
                }
            }
        }

        @Test("a database without its in-process index answers at once that it is not ready, with no suggestion", arguments: Backend.databases)
        func notReady(backend: Backend) async throws {
            try await backend.withStorage(holding: Self.catalog, searchIndexing: .off) { storage in
                try await withServerClient(storage: storage) { client in
                    let found = try await answer(client, "zootopa")
                    #expect(found == SuggestionWire.Answer(suggestion: nil, indexReady: false))
                }
            }
        }
    }
}

/// The path needs a token where the catalogue does.
@Suite("Did you mean: authentication")
struct SuggestionAuthenticationTests {
    @Test("without a token on a server that needs one, a 401 as for a search")
    func needsToken() async throws {
        try await withServerClient(auth: AuthConfiguration()) { client in
            let answer = try await client.get("/api/movies/suggestions?query=zootopa")
            #expect(answer.status == 401)
        }
    }
}
