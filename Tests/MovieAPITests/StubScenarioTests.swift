import Foundation
import MovieAPI
import Movies
import Networking
import ReferenceAPI
import Testing

/// The article's scenarios, through the real `APIClient`, authentication interceptor and
/// `ApiMovieService`, on the stub transport: no sockets, no waiting.
@Suite("Stub scenarios")
struct StubScenarioTests {
    @Test("success: the reference lists, after one token grant, with the bearer token on every movie request")
    func success() async throws {
        let stack = StubbedStack(scenario: .success)
        let grossing = try await stack.movies.topGrossingMovies(year: 2016)
        let rated = try await stack.movies.topRatedMovies(year: 2016)
        let deadpool = try await stack.movies.movie(id: 6)
        #expect(grossing.map(\.id) == Array(1...10))
        #expect(rated.first?.name == "Zootopia")
        #expect(deadpool.cast.map(\.name) == ["Ryan Reynolds", "Karan Soni", "T.J. Miller"])
        #expect(stack.requestLines == [
            "POST /api/auth/token", "GET /api/movies/topGrossing/2016", "GET /api/movies/topRated/2016", "GET /api/movies/6",
        ])
        let movieRequests = stack.transport.receivedRequests.filter { $0.method == .get }
        #expect(movieRequests.allSatisfy { $0.headerFields[.authorization] == "Bearer stub-access-token" })
        #expect(await stack.context.credential()?.refreshToken == "stub-refresh-token")
    }

    @Test("success: an unknown movie is the API's 404")
    func unknownMovie() async throws {
        await #expect(throws: NetworkError.status(code: 404, excerpt: "There is no resource at /api/movies/42.json.")) {
            try await StubbedStack(scenario: .success).movies.movie(id: 42)
        }
    }

    @Test("invalidPermissions: 401, one renewal, then 403 — a status error, not a loop")
    func invalidPermissions() async throws {
        let stack = StubbedStack(scenario: .invalidPermissions)
        do {
            _ = try await stack.movies.topRatedMovies(year: 2016)
            Issue.record("the call should fail")
        } catch let error as NetworkError {
            #expect(error.statusCode == 403)
        }
        #expect(stack.requestLines == [
            "POST /api/auth/token", "GET /api/movies/topRated/2016", "POST /api/auth/token", "GET /api/movies/topRated/2016",
        ])
        let refresh = String(decoding: stack.transport.receivedRequests[2].body ?? Data(), as: UTF8.self)
        #expect(refresh == "grant_type=refresh_token&refresh_token=stub-refresh-token")
    }

    @Test("timeout: timedOut after the request's timeout, without waiting for it")
    func timeout() async throws {
        let valid = Credential(accessToken: "valid", refreshToken: nil, issuedAt: Date(), expiresAt: Date(timeIntervalSinceNow: 3600))
        await #expect(throws: NetworkError.timedOut(after: .seconds(3))) {
            try await StubbedStack(scenario: .timeout, credential: valid).movies.topGrossingMovies(year: 2016)
        }
    }

    @Test("noNetwork: cannotConnect with the API's host and port, and the credential is kept")
    func noNetwork() async throws {
        let expired = Credential(accessToken: "old", refreshToken: "r", issuedAt: .distantPast, expiresAt: .distantPast)
        let stack = StubbedStack(scenario: .noNetwork, credential: expired)
        await #expect(throws: NetworkError.cannotConnect(host: "stub.marquee.invalid", port: 80, reason: "connection refused (stub scenario noNetwork)")) {
            try await stack.movies.topGrossingMovies(year: 2016)
        }
        #expect(await stack.context.credential() == expired)
    }
}
