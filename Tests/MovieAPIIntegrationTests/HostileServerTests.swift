import Foundation
import MarqueeTestSupport
import MovieAPI
import MovieStore
import Movies
import NetworkTestSupport
import Networking
import Testing

/// What a hostile server can send, through the client stack the app builds: nothing crashes the
/// client, the client secret never leaves its origin, and numbers are bounded before use.
@Suite("Hostile servers", .timeLimit(.minutes(2)))
struct HostileServerTests {
    @Test("a redirect to a port out of range is a typed error; a stored answer is still shown")
    func redirectToInvalidPort() async throws {
        try await withFault(.redirectToInvalidPort) { stack, _ in
            await #expect(throws: NetworkError.redirectRefused("the new location names the port 99999, which is not from 1 to 65535")) {
                try await stack.movieService.movies(.topGrossing, year: 2016)
            }
            let store = try MovieStore(url: TestFolders.temporary.appendingPathComponent("hostile-\(UUID().uuidString)/movies.sqlite"))
            let stored = [Movie(id: 1, name: "Kept", year: 2016, releaseDate: Date(timeIntervalSince1970: 1_451_606_400), grossing: 1, rating: 1, cast: [])]
            try await store.saveList(stored, for: ListQuery(.topGrossing, year: 2016), api: "hostile", fetchedAt: Date())
            let cached = CachedMovieService(base: stack.movieService, store: store, api: "hostile")
            let answer = try await cached.movies(.topGrossing, year: 2016, policy: .networkElseCache)
            #expect(answer.value == stored)
            #expect(answer.networkError == .redirectRefused("the new location names the port 99999, which is not from 1 to 65535"))
        }
    }

    @Test("a token endpoint that redirects to another origin never receives a follow-up: the secret stays home", arguments: [
        FaultServer.Fault.challengeThenTokenRedirect307, .challengeThenTokenRedirect302,
    ])
    func tokenRedirectIsNotFollowed(fault: FaultServer.Fault) async throws {
        try await withFault(fault) { stack, server in
            await #expect {
                try await stack.movieService.movies(.topGrossing, year: 2016)
            } throws: { error in
                guard case let .redirectRefused(reason) = error as? NetworkError else { return false }
                return reason.contains("must not be redirected")
            }
            #expect(server.otherHostRequests.isEmpty, "nothing reached the other origin")
            let tokenRequests = server.mainHostRequests.filter { $0["content-type"] == "application/x-www-form-urlencoded" }
            #expect(tokenRequests.count == 1, "the token request was sent once, never retried")
        }
    }

    @Test("an expires_in beyond any sane lifetime is refused, nothing is stored, and nothing traps")
    func hugeExpiry() async throws {
        try await withFault(.challengeThenHugeExpiry) { stack, _ in
            await #expect {
                try await stack.movieService.movies(.topGrossing, year: 2016)
            } throws: { error in
                guard case let .authenticationFailed(reason) = error as? NetworkError else { return false }
                return reason.contains("$.expires_in")
            }
        }
    }

    /// A stack for a custom API at the fault's base URL, with a short timeout.
    private func withFault(_ fault: FaultServer.Fault, _ body: (APIClientStack, FaultServer) async throws -> Void) async throws {
        let server = try await FaultServer.start()
        let transport = AsyncHTTPClientTransport()
        let baseURL = server.baseURL(for: fault)
        let context = InMemoryAPIContext(environment: APIEnvironment(.custom(try APIBaseURL(baseURL)))!)
        let stack = APIClientStack(context: context, transport: transport, clientCredentials: .testClient, requestTimeout: .seconds(5), callDeadline: .seconds(10))
        try await finally(try await body(stack, server)) {
            try? await transport.shutdown()
            await server.stop()
        }
        #expect(await context.credential() == nil)
    }
}
