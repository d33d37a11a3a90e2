import Foundation
import MarqueeTestSupport
import MovieAPI
import Movies
import Networking
import ReferenceAPI
import Testing

/// The article's scenarios, through the real `APIClient`, authentication interceptor and
/// `APIMovieService`, on the stub transport: no sockets, no waiting.
@Suite("Stub scenarios")
struct StubScenarioTests {
    @Test("success: the reference lists; the stub never asks for a credential, so none is requested or sent")
    func success() async throws {
        let stack = StubbedStack(scenario: .success)
        let grossing = try await stack.movies.movies(.topGrossing, year: 2016)
        let rated = try await stack.movies.movies(.topRated, year: 2016)
        let deadpool = try await stack.movies.movie(id: 6)
        #expect(grossing.map(\.id) == Array(1...10))
        #expect(rated.first?.name == "Zootopia")
        #expect(deadpool.cast.map(\.name) == ["Ryan Reynolds", "Karan Soni", "T.J. Miller"])
        #expect(stack.requestLines == ["GET /api/movies/topGrossing/2016", "GET /api/movies/topRated/2016", "GET /api/movies/6"])
        #expect(stack.transport.receivedRequests.allSatisfy { $0.headerFields[.authorization] == nil })
        #expect(await stack.context.credential() == nil)
    }

    @Test("success: a stored credential is presented up front, without a token request")
    func storedCredentialUpFront() async throws {
        let valid = Credential(accessToken: "stored", refreshToken: "r", issuedAt: Date(), expiresAt: Date(timeIntervalSinceNow: 3600))
        let stack = StubbedStack(scenario: .success, credential: valid)
        _ = try await stack.movies.movies(.topGrossing, year: 2016)
        #expect(stack.requestLines == ["GET /api/movies/topGrossing/2016"])
        #expect(stack.transport.receivedRequests.first?.headerFields[.authorization] == "Bearer stored")
    }

    @Test("success: an unknown movie is the API's 404")
    func unknownMovie() async throws {
        await #expect(throws: NetworkError.status(code: 404, excerpt: "There is no resource at /api/movies/42.json.")) {
            try await StubbedStack(scenario: .success).movies.movie(id: 42)
        }
    }

    @Test("invalidPermissions: 401 to the bare request, one authorization, then 403 — a status error, not a loop")
    func invalidPermissions() async throws {
        let stack = StubbedStack(scenario: .invalidPermissions)
        do {
            _ = try await stack.movies.movies(.topRated, year: 2016)
            Issue.record("the call should fail")
        } catch {
            #expect(error.statusCode == 403)
        }
        #expect(stack.requestLines == ["GET /api/movies/topRated/2016", "POST /api/auth/token", "GET /api/movies/topRated/2016"])
        let requests = stack.transport.receivedRequests
        #expect(requests[0].headerFields[.authorization] == nil)
        #expect(String(decoding: requests[1].body ?? Data(), as: UTF8.self) == "grant_type=client_credentials&client_id=marquee-dev&client_secret=marquee-dev-secret")
        #expect(requests[2].headerFields[.authorization] == "Bearer stub-access-token")
    }

    @Test("timeout: timedOut after the request's timeout, without waiting for it")
    func timeout() async throws {
        let valid = Credential(accessToken: "valid", refreshToken: nil, issuedAt: Date(), expiresAt: Date(timeIntervalSinceNow: 3600))
        await #expect(throws: NetworkError.timedOut(after: .seconds(3))) {
            try await StubbedStack(scenario: .timeout, credential: valid).movies.movies(.topGrossing, year: 2016)
        }
    }

    @Test("noNetwork: cannotConnect with the API's host and port, and the credential is kept")
    func noNetwork() async throws {
        let expired = Credential(accessToken: "old", refreshToken: "r", issuedAt: .distantPast, expiresAt: .distantPast)
        let stack = StubbedStack(scenario: .noNetwork, credential: expired)
        await #expect(throws: NetworkError.cannotConnect(host: "stub.marquee.invalid", port: 80, reason: "connection refused (stub scenario noNetwork)")) {
            try await stack.movies.movies(.topGrossing, year: 2016)
        }
        #expect(await stack.context.credential() == expired)
    }

    @Test("a 401 that challenges for another scheme than Bearer is a status error, and no token is asked for")
    func otherChallenge() async throws {
        let transport = StubTransport(rules: [.any(.response(APIResponse(status: .unauthorized, headerFields: [.wwwAuthenticate: #"Basic realm="intranet""#])))])
        let context = InMemoryAPIContext(environment: APIEnvironment(.stub, at: ReferenceStubs.baseURL))
        let stack = APIClientStack(context: context, transport: transport, clientCredentials: .testClient, retryPolicy: nil, callDeadline: nil)
        await #expect(throws: NetworkError.status(code: 401, excerpt: "")) {
            try await stack.movieService.movies(.topGrossing, year: 2016)
        }
        #expect(transport.receivedRequests.map(\.method) == [.get])
    }
}
