import Foundation
import NIOHTTP1
import Testing

/// Bad input gets a 400 or 404 with a JSON error body, never a 500.
@Suite("Bad requests")
struct BadRequestTests {
    @Test(
        "a malformed movie id or year is a 400 with a JSON error",
        arguments: [
            "/api/movies/abc", "/api/movies/-1", "/api/movies/99999999999999999999", "/api/movies/1.5",
            "/api/movies/%20", "/api/movies/%F0%9F%8E%AC", "/api/movies/+1", "/api/movies/1e3",
            "/api/movies/topGrossing/abc", "/api/movies/topGrossing/-1", "/api/movies/topGrossing/0",
            "/api/movies/topGrossing/10000", "/api/movies/topRated/99999999999999999999", "/api/movies/topRated/2016abc",
        ]
    )
    func rejectsMalformedParameters(path: String) async throws {
        try await withServerClient { client in
            let answer = try await client.get(path)
            #expect(answer.status == 400)
            #expect(answer.contentType == "application/json")
            #expect(answer.json?["error"] as? String == "invalid_request")
            #expect((answer.json?["error_description"] as? String)?.isEmpty == false)
        }
    }

    @Test("an empty year is a 400 (and /api/movies/, with no id, is the listing of every movie)", arguments: ["/api/movies/topGrossing/", "/api/movies/topRated/"])
    func rejectsEmptyParameters(path: String) async throws {
        try await withServerClient { client in
            let answer = try await client.get(path)
            #expect(answer.status == 400)
            #expect(answer.json?["error"] as? String == "invalid_request")
        }
    }

    @Test("/api/movies/ is the first page of every movie, as /api/movies is")
    func listsWithoutID() async throws {
        try await withServerClient { client in
            let slash = try await client.get("/api/movies/")
            #expect(slash.status == 200)
            #expect(slash.body == (try await client.get("/api/movies")).body)
        }
    }

    @Test("an unknown movie is a 404 with a JSON error")
    func unknownMovie() async throws {
        try await withServerClient { client in
            let answer = try await client.get("/api/movies/42")
            #expect(answer.status == 404)
            #expect(answer.contentType == "application/json")
            #expect(answer.json?["error"] as? String == "not_found")
            #expect(answer.json?["error_description"] as? String == "There is no movie with id 42.")
        }
    }

    @Test("an unknown path is a 404 with a JSON error", arguments: ["/api", "/api/films/1", "/api/movies/1/cast", "/index.html"])
    func unknownPath(path: String) async throws {
        try await withServerClient { client in
            let answer = try await client.get(path)
            #expect(answer.status == 404)
            #expect(answer.json?["error"] as? String == "not_found")
        }
    }

    @Test("a year with no movies is an empty list")
    func emptyYear() async throws {
        try await withServerClient { client in
            for path in ["/api/movies/topGrossing/1999", "/api/movies/topRated/1"] {
                let answer = try await client.get(path)
                #expect(answer.status == 200)
                #expect(String(decoding: answer.body, as: UTF8.self) == "[]")
            }
        }
    }
}
