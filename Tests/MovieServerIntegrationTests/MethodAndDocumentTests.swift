import Foundation
import MovieContract
import NIOHTTP1
import NetworkTestSupport
import Testing

@Suite("Methods and the OpenAPI document")
struct MethodAndDocumentTests {
    @Test(
        "a known path with another method is 405 with Allow and a JSON error",
        arguments: [
            (HTTPMethod.POST, "/api/movies/1", "GET, HEAD"), (.DELETE, "/api/movies/topGrossing/2016", "GET, HEAD"),
            (.PUT, "/api/movies/topRated/2016", "GET, HEAD"), (.GET, "/api/auth/token", "POST"),
            (.DELETE, "/api/auth", "GET, HEAD"), (.PATCH, "/api/openapi.yaml", "GET, HEAD"),
        ]
    )
    func answersMethodNotAllowed(method: HTTPMethod, path: String, allowed: String) async throws {
        try await withServerClient { client in
            let answer = try await client.get(path, method: method)
            #expect(answer.status == 405)
            #expect(answer.headers.first(name: "allow") == allowed)
            #expect(answer.json?["error"] as? String == "method_not_allowed")
        }
    }

    @Test(
        "junk in path parameters is 400 or 404, never 500",
        arguments: ["/api/movies/%00", "/api/movies/%C3%A9", "/api/movies/%E2%80%8B1", "/api/movies/１２", "/api/movies/%25",
                    "/api/movies/topRated/%FF%FE", "/api/movies/topGrossing/2016%0A", "/api/movies/topGrossing/..%2F..", "/api/movies/1;x=1"]
    )
    func rejectsJunk(path: String) async throws {
        // Sent byte for byte: an HTTP client library decodes and re-encodes a path (one whose
        // escapes are not UTF-8 became "/"), so it would test another path.
        let target = path.unicodeScalars.map { $0.isASCII ? String($0) : String($0).utf8.map { String(format: "%%%02X", $0) }.joined() }.joined()
        try await withServerClient { client in
            let reply = try await RawConnection.exchange(port: client.server.port, "GET \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            #expect([400, 404].contains(reply.status), "\(path) answered \(reply.text)")
            #expect(reply.text.contains(#"{"error":""#), "\(reply.text)")
        }
    }

    @Test("the OpenAPI document is served, and it describes every path the server answers")
    func servesTheDocument() async throws {
        try await withServerClient { client in
            let answer = try await client.get("/api/openapi.yaml")
            #expect(answer.status == 200)
            #expect(answer.contentType == "application/yaml")
            let text = String(decoding: answer.body, as: UTF8.self)
            #expect(text.hasPrefix("openapi: 3.1.0"))
            for path in ["/api/movies/{id}:", "/api/movies/topGrossing/{year}:", "/api/movies/topRated/{year}:", "/api/auth:", "/api/auth/token:", "/api/openapi.yaml:", "/health/live:", "/health/ready:", "/metrics:"] {
                #expect(text.contains("  \(path)\n"), "\(path) is not documented")
            }
            #expect(text.contains("enum: [\(CatalogMovieDetails.knownGenres.joined(separator: ", "))]"), "the genres a movie may have are the contract's")
            #expect(text.contains("runtimeMinutes: { type: integer, minimum: 1, maximum: \(CatalogMovieDetails.longestRuntime) }"))
        }
    }
}
