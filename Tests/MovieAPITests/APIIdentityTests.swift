import Foundation
import MovieAPI
import Testing

/// Spellings of one API are one identity, so its stored movies and credential are found again.
@Suite("API identity")
struct APIIdentityTests {
    @Test("scheme and host case, the default port and the trailing slash do not make another API", arguments: [
        ("HTTP://Host:80/api", "http://host/api/"),
        ("http://HOST/api/", "http://host/api/"),
        ("https://Movies.Example:443/v1", "https://movies.example/v1/"),
        ("http://127.0.0.1:8080/api", "http://127.0.0.1:8080/api/"),
    ])
    func normalises(spelling: String, canonical: String) throws {
        let identity = APIIdentity(baseURL: try APIBaseURL(spelling))
        #expect(identity.key == canonical)
        #expect(identity == APIIdentity(baseURL: try APIBaseURL(canonical)))
    }

    @Test("another port, path or scheme is another API")
    func distinguishes() throws {
        let base = APIIdentity(baseURL: try APIBaseURL("http://host/api/"))
        for other in ["http://host:8080/api/", "https://host/api/", "http://host/api/v2/", "http://other/api/"] {
            #expect(APIIdentity(baseURL: try APIBaseURL(other)) != base, "\(other)")
        }
    }
}
