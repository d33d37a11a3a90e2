import Foundation
import MovieServer
import NIOHTTP1
import Testing

/// Validators, freshness, `304 Not Modified` and `HEAD` on the movie paths.
@Suite("Conditional requests and HEAD")
struct ConditionalRequestTests {
    static let paths = ["/api/movies/1", "/api/movies/topGrossing/2016", "/api/movies/topRated/2016", "/api/movies/topRated/1900"]

    /// The reference catalog with the name of movie 1 changed.
    static func renamedCatalog() throws -> Catalog {
        let movies = try Catalog.reference().movies.map { movie in
            var movie = movie
            if movie.id == 1 { movie.name += " (Director's Cut)" }
            return movie
        }
        return try Catalog(movies: movies)
    }

    func entityTags(catalog: Catalog? = nil) async throws -> [String: String] {
        try await withServerClient(catalog: catalog) { client in
            var tags: [String: String] = [:]
            for path in Self.paths {
                let answer = try await client.get(path)
                #expect(answer.status == 200)
                let tag = try #require(answer.headers.first(name: "etag"))
                tags[path] = tag
            }
            return tags
        }
    }

    @Test("an ETag is strong, the same after a restart for the same catalog, and another for a changed body")
    func stableTags() async throws {
        let first = try await entityTags()
        let afterRestart = try await entityTags()
        #expect(first == afterRestart)
        #expect(Set(first.values).count == Self.paths.count, "every body has its own tag: \(first)")
        for tag in first.values {
            #expect(tag.wholeMatch(of: /"[0-9a-f]{32}"/) != nil, "\(tag) is not a strong tag of 128 hex bits")
        }

        let changed = try await entityTags(catalog: Self.renamedCatalog())
        #expect(changed["/api/movies/1"] != first["/api/movies/1"])
        #expect(changed["/api/movies/topGrossing/2016"] != first["/api/movies/topGrossing/2016"])
        #expect(changed["/api/movies/topRated/1900"] == first["/api/movies/topRated/1900"], "an unchanged body keeps its tag")
    }

    @Test("an If-None-Match that matches weakly (RFC 9110 13.1.3: W/ or not) is a 304 without a body; a mismatch is a 200 with the body", arguments: paths)
    func notModified(path: String) async throws {
        try await withServerClient { client in
            let full = try await client.get(path)
            let tag = try #require(full.headers.first(name: "etag"))
            #expect(full.headers.first(name: "cache-control") == "public, max-age=60")

            for condition in [tag, "\"0123\", \(tag)", "*", "W/\(tag)", "W/\"0123\",W/\(tag)"] {
                let answer = try await client.get(path, headers: [("If-None-Match", condition)])
                #expect(answer.status == 304, "\(condition)")
                #expect(answer.body.isEmpty)
                #expect(answer.headers.first(name: "etag") == tag)
                #expect(answer.headers.first(name: "cache-control") == "public, max-age=60")
            }
            for condition in ["\"0123\"", "W/\"0123\"", tag.replacingOccurrences(of: "\"", with: ""), "W/" + tag.replacingOccurrences(of: "\"", with: "")] {
                let answer = try await client.get(path, headers: [("If-None-Match", condition)])
                #expect(answer.status == 200, "\(condition)")
                #expect(answer.body == full.body)
            }
        }
    }

    @Test("HEAD answers every GET path with GET's headers and no body", arguments: paths + ["/api/auth", "/api/openapi.yaml"])
    func head(path: String) async throws {
        try await withServerClient { client in
            let get = try await client.get(path)
            let head = try await client.get(path, method: .HEAD)
            #expect(head.status == 200)
            #expect(head.body.isEmpty)
            for name in ["cache-control", "content-type", "content-length"] {
                #expect(head.headers.first(name: name) == get.headers.first(name: name), "\(name)")
            }
            #expect(head.headers.first(name: "content-length") == String(get.body.count))
            guard Self.paths.contains(path) else {
                #expect(get.headers.first(name: "etag") == nil && head.headers.first(name: "etag") == nil, "\(path) has no validator")
                return
            }
            let tag = try #require(get.headers.first(name: "etag"), "\(path) has a validator")
            #expect(head.headers.first(name: "etag") == tag)
            let revalidated = try await client.get(path, method: .HEAD, headers: [("If-None-Match", tag)])
            #expect(revalidated.status == 304)
            #expect(revalidated.body.isEmpty)
        }
    }

    @Test("answers that needed a token are private; serve's max-age is the one sent")
    func privateAnswers() async throws {
        try await withServerClient(auth: AuthConfiguration(), maxAge: .seconds(300)) { client in
            let token = try await AccessTokens.accessToken(from: client)
            let answer = try await client.get("/api/movies/topGrossing/2016", headers: [("Authorization", "Bearer \(token)")])
            #expect(answer.status == 200)
            #expect(answer.headers.first(name: "cache-control") == "private, max-age=300")
            let refused = try await client.get("/api/movies/topGrossing/2016", headers: [("If-None-Match", "*")])
            #expect(refused.status == 401, "a validator is no way around the token")
        }
    }
}
