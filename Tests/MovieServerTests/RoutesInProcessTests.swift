import Foundation
import Hummingbird
import HummingbirdTesting
import MovieContract
@testable import MovieServer
import ServerTestSupport
import Testing

/// The router driven in process (HummingbirdTesting's `.router`, no socket): what a route answers
/// once a request reaches it. What the socket itself does (the connection's guard, the event
/// loop's kept answers, the event streams) is tested over loopback in `MovieServerIntegrationTests`.
@Suite("Routes in process")
struct RoutesInProcessTests {
    static func application(auth: AuthConfiguration = .publicAccess) async throws -> some ApplicationProtocol {
        let storage = MemoryStorage(catalog: try Catalog.reference())
        let server = await MovieServer(configuration: MovieServer.Configuration(host: "127.0.0.1", port: 0, storage: storage, auth: auth, logger: quietLogger))
        return Application(router: try server.makeRouter())
    }

    static func json(_ body: ByteBuffer) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(buffer: body)) as? [String: Any]) ?? [:]
    }

    /// The contract's error body, or nil for a body that is not one.
    static func error(_ body: ByteBuffer) -> ErrorBody? {
        try? JSONDecoder().decode(ErrorBody.self, from: Data(buffer: body))
    }

    @Test("a movie by id is the catalogue's, with its validator; an unknown id is a 404, a bad one a 400, a wrong method a 405 naming the allowed ones, each with its JSON error")
    func movieRoutes() async throws {
        let movie = try #require(try Catalog.reference().movie(id: 6))
        try await Self.application().test(.router) { client in
            try await client.execute(uri: "/api/movies/6", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "application/json")
                #expect(response.headers[.eTag] != nil)
                #expect(Self.json(response.body)["name"] as? String == movie.name)
            }
            try await client.execute(uri: "/api/movies/999999", method: .get) { response in
                #expect(response.status == .notFound)
                #expect(Self.error(response.body)?.error == "not_found")
            }
            try await client.execute(uri: "/api/movies/six", method: .get) { response in
                #expect(response.status == .badRequest)
                #expect(Self.error(response.body)?.errorDescription.isEmpty == false)
            }
            try await client.execute(uri: "/api/movies/6", method: .delete) { response in
                #expect(response.status == .methodNotAllowed)
                #expect(response.headers[.allow]?.contains("GET") == true)
                #expect(Self.error(response.body)?.error == "method_not_allowed")
            }
        }
    }

    @Test("the watchlist of a server that needs tokens: a request without one is a 401 with its challenge, before any storage is read")
    func watchlistNeedsAToken() async throws {
        var auth = AuthConfiguration(requiresToken: true)
        auth.passwordHashCost = 4
        try await Self.application(auth: auth).test(.router) { client in
            try await client.execute(uri: "/api/watchlist", method: .get) { response in
                #expect(response.status == .unauthorized)
                #expect(response.headers[.wwwAuthenticate]?.hasPrefix("Bearer") == true)
                #expect(Self.error(response.body)?.error == "invalid_token")
            }
        }
    }
}
