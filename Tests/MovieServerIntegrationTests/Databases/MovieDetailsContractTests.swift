import Foundation
import IMDbDataSets
import MarqueeTestSupport
import MovieContract
import MovieServer
import MovieServerDatabases
import ServerTestSupport
import Testing

extension ServerDatabaseTests {
    /// What IMDb's data sets tell of a movie (its IMDb id, original title, runtime, genres and
    /// votes), kept and served by every backend; the original movies are written as before.
    @Suite("Movie details on every backend")
    struct MovieDetailsContractTests {
        @Test("a movie's details are kept and served; importing them again changes nothing; a catalogue without them clears them", arguments: Backend.databases)
        func details(backend: Backend) async throws {
            let (movies, _) = try IMDbImport(folder: try IMDbFixtures.all()).readMovies()
            let storage = try await backend.makeLocation().open(logger: quietLogger)
            try await finally(try await {
                #expect(try await storage.importMovies(movies, batchSize: 2) { _ in } == CatalogImportSummary(added: 3))
                #expect(try await storage.importMovies(movies, batchSize: 2) { _ in } == CatalogImportSummary(unchanged: 3), "read back as written")
                try await Self.expectServed(storage)

                let plain = movies.map { movie in
                    var movie = movie
                    movie.details = CatalogMovieDetails()
                    return movie
                }
                #expect(try await storage.importMovies(plain, batchSize: 2) { _ in } == CatalogImportSummary(changed: 3))
                #expect(try await storage.movie(id: 211915)?.details == CatalogMovieDetails())
            }()) { await storage.close() }
        }

        @Test("the memory backend serves the details of the catalogue it holds")
        func memory() async throws {
            let (movies, _) = try IMDbImport(folder: try IMDbFixtures.all()).readMovies()
            try await Self.expectServed(MemoryStorage(catalog: try Catalog(movies: movies)))
        }

        static func expectServed(_ storage: some CatalogueStorage) async throws {
            let amelie = try #require(try await storage.movie(id: 211915))
            #expect(amelie.details == CatalogMovieDetails(
                imdbID: "tt0211915", originalTitle: "Le Fabuleux Destin d'Amélie Poulain", runtimeMinutes: 122, genres: ["Comedy", "Romance"], votes: nil
            ))
            let body = ContractJSON.movie(try #require(try await storage.movie(id: 111161)))
            #expect(body.hasSuffix(#""cast":[{"name":"Tim Robbins"},{"name":"Morgan Freeman"},{"name":"Bob Gunton"}],"imdbId":"tt0111161","runtimeMinutes":142,"genres":["Drama"],"votes":2900000}"#), "\(body)")
        }

        @Test("details the contract does not allow are refused with the movie and the reason: an unknown genre, a runtime of 0, an IMDb id of another shape")
        func refused() throws {
            var movie = try #require(try Catalog.reference().movies.first)
            for (details, words) in [
                (CatalogMovieDetails(genres: ["Space Opera"]), "not one of IMDb's"),
                (CatalogMovieDetails(runtimeMinutes: 0), "runtimeMinutes 0"),
                (CatalogMovieDetails(imdbID: "nm0000151"), "imdbId 'nm0000151'"),
                (CatalogMovieDetails(genres: ["Drama", "Drama"]), "one twice"),
            ] {
                movie.details = details
                #expect(throws: CatalogError.self) { try Catalog(movies: [movie]) }
                do { _ = try Catalog(movies: [movie]) } catch { #expect(error.description.contains(words), "\(error.description)") }
            }
        }
    }
}
