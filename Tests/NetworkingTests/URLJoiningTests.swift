import Foundation
import Networking
import Testing

@Suite("URL joining")
struct URLJoiningTests {
    @Test(
        "exactly one slash between the base path and the route, with or without a trailing slash",
        arguments: ["http://example.com/api/", "http://example.com/api", "http://example.com/api//"]
    )
    func joinsWithOneSlash(base: String) throws {
        let url = try Endpoint(path: ["movies", "1"]).url(relativeTo: URL(string: base)!)
        #expect(url.absoluteString == "http://example.com/api/movies/1")
    }

    @Test("a base URL without a path joins at the root")
    func joinsAtTheRoot() throws {
        let url = try Endpoint(path: ["auth"]).url(relativeTo: URL(string: "http://127.0.0.1:8080")!)
        #expect(url.absoluteString == "http://127.0.0.1:8080/auth")
    }

    @Test("each segment is percent-encoded on its own, so it cannot add path levels")
    func encodesSegments() throws {
        let url = try Endpoint(path: ["movies", "a/b c?"]).url(relativeTo: URL(string: "http://example.com/api/")!)
        #expect(url.absoluteString == "http://example.com/api/movies/a%2Fb%20c%3F")
    }

    @Test("query items are appended")
    func appendsQuery() throws {
        let endpoint = Endpoint(path: ["movies"], queryItems: [URLQueryItem(name: "year", value: "2016")])
        let url = try endpoint.url(relativeTo: URL(string: "https://example.com/api")!)
        #expect(url.absoluteString == "https://example.com/api/movies?year=2016")
    }

    @Test("segments that would change the path are refused", arguments: ["", ".", ".."])
    func refusesDotSegments(segment: String) {
        #expect(throws: NetworkError.self) {
            try Endpoint(path: ["movies", segment]).url(relativeTo: URL(string: "http://example.com/api/")!)
        }
    }

    @Test("a base URL that is not http(s) with a host is an invalid route", arguments: ["ftp://example.com/api/", "file:///tmp/api/", "/api/"])
    func refusesOtherBases(base: String) {
        #expect {
            try Endpoint(path: ["movies"]).url(relativeTo: URL(string: base)!)
        } throws: { error in
            guard case .invalidRoute = error as? NetworkError else { return false }
            return true
        }
    }

    @Test("GET, HEAD, PUT, DELETE and OPTIONS are retry-safe by default; POST and PATCH are not")
    func retrySafetyFollowsTheMethod() {
        #expect(Endpoint(method: .get, path: ["x"]).isRetrySafe)
        #expect(Endpoint(method: .put, path: ["x"]).isRetrySafe)
        #expect(!Endpoint(method: .post, path: ["x"]).isRetrySafe)
        #expect(!Endpoint(method: .patch, path: ["x"]).isRetrySafe)
        #expect(Endpoint(method: .post, path: ["x"], isRetrySafe: true).isRetrySafe)
    }
}
