import Foundation
import HTTPTypes
import Hummingbird
import MarqueeTestSupport
import MovieAPI
import Movies
import NetworkTestSupport
import Networking
import NIOConcurrencyHelpers
import ReferenceAPI
import ServerTestSupport
import Testing

/// The original site's scheme end to end, as `--env production` uses it: the plain-text token of
/// `GET /api/auth`, fetched once, sent up front in an `AUTH_TOKEN` header on every movie request.
@Suite("Legacy AUTH_TOKEN authentication", .timeLimit(.minutes(1)))
struct LegacyAuthenticationTests {
    @Test("one GET /api/auth, then AUTH_TOKEN on every movie request; no OAuth request, no Authorization header")
    func legacyFlow() async throws {
        let token = try #require(ReferenceBodies.body(at: "auth.txt").map { String(decoding: $0, as: UTF8.self) })
        let seen = NIOLockedValueBox<[String]>([])
        try await withLoopbackServer({ router in
            router.get("api/auth") { _, _ in
                seen.withLockedValue { $0.append("GET /api/auth") }
                return token
            }
            router.get("api/movies/**") { request, _ in
                let header = request.headers[HTTPField.Name("AUTH_TOKEN")!]
                seen.withLockedValue { $0.append("GET \(request.uri.path) AUTH_TOKEN=\(header == token.trimmingCharacters(in: .whitespacesAndNewlines)) Authorization=\(request.headers[.authorization] != nil)") }
                guard header != nil, let body = ReferenceBodies.body(at: request.uri.path.dropFirst(5) + ".json") else {
                    return Response(status: .unauthorized)
                }
                return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: body)))
            }
        }) { server in
            try await withTransport { transport in
                let context = InMemoryAPIContext(environment: APIEnvironment(.production, at: server.baseURL))
                let stack = APIClientStack(context: context, transport: transport, clientCredentials: .testClient)
                let list = try await stack.movieService.movies(.topGrossing, year: 2016)
                let movie = try await stack.movieService.movie(id: 6)
                let credential = await context.credential()
                #expect(list.count == 10 && movie.name == "Deadpool")
                #expect(credential?.expiresAt == .distantFuture)
            }
        }
        #expect(seen.withLockedValue { $0 } == [
            "GET /api/auth",
            "GET /api/movies/topGrossing/2016 AUTH_TOKEN=true Authorization=false",
            "GET /api/movies/6 AUTH_TOKEN=true Authorization=false",
        ])
    }
}
