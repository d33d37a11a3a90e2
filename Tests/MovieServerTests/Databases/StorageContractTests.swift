import Foundation
import MarqueeTestSupport
import MovieServer
import ReferenceAPI
import Testing

extension ServerDatabaseTests {
    /// The reference contract, byte for byte, and the error answers, on every backend.
    @Suite("Contract on every backend")
    struct StorageContractTests {
        @Test("every reference path answers the reference body exactly", arguments: Backend.allCases)
        func referenceBodies(backend: Backend) async throws {
            try await backend.withStorage { storage in
                try await withServerClient(storage: storage) { client in
                    for path in ReferenceBodies.paths {
                        let expected = try #require(ReferenceBodies.body(at: path))
                        let answer = try await client.get(ReferenceBodies.apiPath(for: path))
                        #expect(answer.status == 200, "\(path)")
                        #expect(answer.body == expected, "body of \(path) on \(backend) differs from the reference")
                    }
                }
            }
        }

        @Test("bad ids and years are 400, unknown movies 404, wrong methods 405", arguments: Backend.allCases)
        func errorAnswers(backend: Backend) async throws {
            try await backend.withStorage { storage in
                try await withServerClient(storage: storage) { client in
                    for path in ["/api/movies/abc", "/api/movies/topGrossing/0", "/api/movies/topRated/2016abc"] {
                        let answer = try await client.get(path)
                        #expect(answer.status == 400, "\(path)")
                        #expect(answer.json?["error"] as? String == "invalid_request")
                    }
                    let unknown = try await client.get("/api/movies/424242")
                    #expect(unknown.status == 404)
                    #expect(unknown.json?["error"] as? String == "not_found")
                    let post = try await client.get("/api/movies/topGrossing/2016", method: .POST)
                    #expect(post.status == 405)
                    #expect(try await client.get("/api/movies/topRated/1066").body == Data("[]".utf8))
                }
            }
        }

        @Test("a catalog imported into a running server's database is served within a second, not per request", arguments: Backend.databases)
        func servesNewCatalogVersion(backend: Backend) async throws {
            let location = try await backend.makeLocation()
            let storage = try await location.open(logger: quietLogger)
            _ = try await storage.importMovies(try Catalog.reference().movies, batchSize: 100) { _ in }
            try await finally(try await withServerClient(storage: storage) { client in
                let before = try await client.get("/api/movies/topGrossing/2016")
                var renamed = try #require(try Catalog.reference().topGrossing(year: 2016).first)
                renamed.name = "Renamed While Serving"
                let importer = try await location.open(logger: quietLogger)
                let summary = try await importer.importMovies([renamed], batchSize: 10) { _ in }
                await importer.close()
                #expect(summary == CatalogImportSummary(added: 0, changed: 1, unchanged: 0))
                var after = before
                _ = try await eventually(limit: .seconds(10)) {
                    after = try await client.get("/api/movies/topGrossing/2016")
                    return after.body != before.body
                }
                #expect(String(decoding: after.body, as: UTF8.self).contains("Renamed While Serving"))
                #expect(after.headers.first(name: "etag") != before.headers.first(name: "etag"))
            }) { await storage.close() }
        }
    }
}
