import Foundation
import Hummingbird
import NIOConcurrencyHelpers
import NetworkTestSupport
import Networking
import ServerTestSupport
import Testing

/// Redirects followed by the live transport, against real servers on loopback.
@Suite("Redirects")
struct RedirectionTests {
    @Test("a redirect within the origin keeps the credentials; 303 turns a POST into a GET")
    func keepsCredentialsWithinTheOrigin() async throws {
        let seen = HeaderLog()
        try await withLoopbackServer({ router in
            router.post("api/start") { _, _ in Response(status: .seeOther, headers: [.location: "/api/end"]) }
            router.get("api/start") { _, _ in Response(status: .temporaryRedirect, headers: [.location: "end"]) }
            router.get("api/end") { request, _ in
                seen.record(request.headers[.authorization])
                return "[1]"
            }
        }) { server in
            try await withTransport { transport in
                let client = APIClient(baseURL: server.baseURL, transport: transport)
                let get = Endpoint(path: ["start"], headerFields: [.authorization: "Bearer same-origin"])
                let afterGet = try await client.send(Networking.Request<[Int]>(get))
                let post = Endpoint(method: .post, path: ["start"], headerFields: [.authorization: "Bearer same-origin"], body: Data("x".utf8))
                let afterPost = try await client.send(Networking.Request<[Int]>(post))
                #expect(afterGet == [1] && afterPost == [1])
                #expect(seen.values == ["Bearer same-origin", "Bearer same-origin"])
            }
        }
    }

    @Test("a redirect loop ends with an error that says so, not forever")
    func stopsRedirectLoops() async throws {
        try await withLoopbackServer({ router in
            router.get("api/loop") { _, _ in Response(status: .found, headers: [.location: "/api/loop"]) }
        }) { server in
            try await withTransport { transport in
                await #expect(throws: NetworkError.redirectRefused("more than 5 redirects in a row")) {
                    try await APIClient(baseURL: server.baseURL, transport: transport).send(Endpoint(path: ["loop"]))
                }
            }
        }
    }
}

/// Header values a test server saw.
final class HeaderLog: Sendable {
    private let log = NIOLockedValueBox<[String?]>([])
    var values: [String?] { log.withLockedValue { $0 } }
    func record(_ value: String?) { log.withLockedValue { $0.append(value) } }
}
