import Foundation
import HTTPTypes
import MarqueeTestSupport
import Networking
import Testing

@Suite("Cache headers, conditional sends and curl commands")
struct HTTPCachingAndCurlTests {
    @Test("ETag and Cache-Control are read defensively", arguments: [
        (["etag": "\"abc\"", "cache-control": "private, max-age=60"], CacheHeaders(entityTag: "\"abc\"", maxAge: .seconds(60))),
        (["etag": "W/\"abc\"", "cache-control": "no-store"], CacheHeaders(entityTag: "W/\"abc\"", noStore: true)),
        (["etag": "abc", "cache-control": "max-age=\"30\", max-age=90"], CacheHeaders(maxAge: .seconds(30))),
        (["etag": "\"a\u{1B}[2Jb\"", "cache-control": "max-age=-5"], CacheHeaders(maxAge: .zero)),
        (["cache-control": "max-age=-1"], CacheHeaders(maxAge: .zero)),
        (["cache-control": "public, max-age=abc"], CacheHeaders(maxAge: .zero)),
        (["cache-control": "max-age="], CacheHeaders(maxAge: .zero)),
        (["cache-control": "max-age=1e3"], CacheHeaders(maxAge: .zero)),
        (["cache-control": "max-age=999999999999999999999999999"], CacheHeaders(maxAge: .seconds(2_147_483_648))),
        (["cache-control": "public"], CacheHeaders()),
        (["etag": "\"" + String(repeating: "a", count: 300) + "\"", "cache-control": "max-age=99999999999"], CacheHeaders(maxAge: .seconds(2_147_483_648))),
        (["cache-control": "no-cache"], CacheHeaders(maxAge: .zero)),
    ])
    func readsCacheHeaders(fields: [String: String], expected: CacheHeaders) {
        var headerFields = HTTPFields()
        for (name, value) in fields { headerFields[HTTPField.Name(name)!] = value }
        #expect(CacheHeaders(headerFields) == expected)
    }

    @Test("a 304 is an answer only to a request that sent If-None-Match")
    func notModifiedNeedsACondition() async throws {
        let notModified = APIResponse(status: .notModified, headerFields: [.eTag: "\"v1\""])
        let transport = StubTransport(rules: [.any(.response(notModified))])
        let client = APIClient(baseURL: URL(string: "http://127.0.0.1:1/api/")!, transport: transport)
        let route = Endpoint(path: ["movies", "1"])
        await #expect(throws: NetworkError.self) { try await client.send(route) }
        guard case let .notModified(response) = try await client.send(route, ifNoneMatch: "\"v1\"") else {
            Issue.record("a 304 to a conditional request is notModified")
            return
        }
        #expect(response.headerFields[.eTag] == "\"v1\"")
    }

    @Test("a 304 that confirms a weak form of the tag sent is current; one that names another tag is asked again without a tag")
    func notModifiedMustConfirmTheTagSent() async throws {
        let route = Endpoint(path: ["movies", "1"])
        let weak = StubTransport(rules: [.any(.response(APIResponse(status: .notModified, headerFields: [.eTag: "W/\"v1\""])))])
        let weakClient = APIClient(baseURL: URL(string: "http://127.0.0.1:1/api/")!, transport: weak)
        guard case .notModified = try await weakClient.send(route, ifNoneMatch: "\"v1\"") else {
            Issue.record("W/\"v1\" weakly matches \"v1\"")
            return
        }
        #expect(weak.receivedRequests.count == 1)

        let lines = LogCapture()
        let other = StubTransport(rules: [.any(.sequence([
            .response(APIResponse(status: .notModified, headerFields: [.eTag: "\"v2\""])),
            .response(APIResponse(status: .ok, headerFields: [.eTag: "\"v2\""], body: Data("{}".utf8))),
        ]))])
        let client = APIClient(baseURL: URL(string: "http://127.0.0.1:1/api/")!, transport: other, logger: lines.logger)
        guard case let .modified(response) = try await client.send(route, ifNoneMatch: "\"v1\"") else {
            Issue.record("a 304 for another tag must not confirm the stored answer")
            return
        }
        #expect(response.headerFields[.eTag] == "\"v2\"")
        #expect(response.body == Data("{}".utf8))
        #expect(other.receivedRequests.map { $0.headerFields[.ifNoneMatch] } == ["\"v1\"", nil], "the second request carries no tag")
        #expect(lines.messages.contains { $0.contains("the 304 confirms \"v2\", not the one sent; asking again without a tag") })
    }

    @Test("curl commands quote everything and replace every credential with a placeholder the app names")
    func curlCommands() throws {
        let base = URL(string: "http://127.0.0.1:8080/api/")!
        var get = try APIRequest(endpoint: Endpoint(path: ["movies", "it's"], headerFields: [.accept: "a'b"]), baseURL: base, defaultTimeout: .seconds(1))
        get.headerFields[.authorization] = "Bearer s3cr3t"
        get.headerFields[HTTPField.Name("AUTH_TOKEN")!] = "legacy-s3cr3t"
        get.sensitiveHeaderNames.insert(HTTPField.Name("AUTH_TOKEN")!)
        let command = CurlCommand.make(for: get, placeholders: CurlCommand.Placeholders(prefix: "MARQUEE_"))
        #expect(command.hasPrefix(#"curl --header 'Accept: a'\''b' --header "Authorization: Bearer ${MARQUEE_ACCESS_TOKEN}" --header "AUTH_TOKEN: ${MARQUEE_ACCESS_TOKEN}" 'http://127.0.0.1:8080/api/movies/"#), "\(command)")
        #expect(!command.contains("s3cr3t"))

        let body = Data("grant_type=refresh_token&refresh_token=r3fr3sh&client_id=me&client_secret=$ecret&my_password=pw".utf8)
        var post = try APIRequest(
            endpoint: Endpoint(method: .post, path: ["auth", "token"], headerFields: [.contentType: "application/x-www-form-urlencoded"], body: body),
            baseURL: base, defaultTimeout: .seconds(1)
        )
        post.headerFields[.authorization] = "Basic bWU6c2VjcmV0"
        let postCommand = CurlCommand.make(for: post)
        #expect(postCommand.contains(#"--header "Authorization: Basic ${CLIENT_CREDENTIALS}""#))
        #expect(postCommand.contains(#"--data-binary "grant_type=refresh_token&refresh_token=${REFRESH_TOKEN}&client_id=me&client_secret=${CLIENT_SECRET}&my_password=${SECRET}""#))
        for secret in ["r3fr3sh", "$ecret", "pw\"", "bWU6c2VjcmV0"] {
            #expect(!postCommand.contains(secret))
        }
    }
}
