import Foundation
import MarqueeTestSupport
import MovieServer
import MovieServerDatabases
import ReferenceAPI
import ServerTestSupport
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

        @Test("an import invalidates every kept answer within a second, on each of two instances on one database: a movie, a 404 that now exists, a search", arguments: Backend.databases)
        func importInvalidatesTheCache(backend: Backend) async throws {
            let location = try await backend.makeLocation()
            let first = try await location.open(logger: quietLogger)
            _ = try await first.importMovies(try Catalog.reference().movies, batchSize: 100) { _ in }
            let second = try await location.open(logger: quietLogger)
            try await finally(try await withServerClient(storage: first) { one in
                try await withServerClient(storage: second) { two in
                    let paths = ["/api/movies/6", "/api/movies/4242", "/api/movies?query=renamed"]
                    var before: [String: ServerClient.Answer] = [:]
                    for client in [one, two] {
                        for path in paths {
                            before[path] = try await client.get(path)
                            _ = try await client.get(path)
                        }
                    }
                    #expect(before["/api/movies/4242"]?.status == 404)
                    var renamed = try #require(try Catalog.reference().movie(id: 6))
                    renamed.name = "Renamed While Cached"
                    var added = renamed
                    added.id = 4242
                    let importer = try await location.open(logger: quietLogger)
                    _ = try await importer.importMovies([renamed, added], batchSize: 10) { _ in }
                    await importer.close()
                    for client in [one, two] {
                        for path in paths {
                            var after = try await client.get(path)
                            let changed = try await eventually(limit: .seconds(10)) {
                                after = try await client.get(path)
                                return after.body != before[path]?.body
                            }
                            #expect(changed, "\(path) on instance \(client.server.port)")
                            #expect(String(decoding: after.body, as: UTF8.self).contains("Renamed While Cached"), "\(path)")
                            #expect(after.status == 200)
                        }
                    }
                }
            }) {
                await second.close()
                await first.close()
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
