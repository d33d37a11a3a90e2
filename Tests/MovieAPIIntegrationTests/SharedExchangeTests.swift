import Foundation
import MarqueeTestSupport
import MovieAPI
import Movies
import NetworkTestSupport
import Networking
import ServerTestSupport
import Testing

/// Identical requests in flight at once share one exchange, against the reference site on
/// loopback, with the requests the site received counted.
@Suite("Shared in-flight requests")
struct SharedExchangeTests {
    /// The client stack of the site at `url`, with the shared transport under its client.
    func withStack(_ url: URL, _ body: (APIClientStack, SharedExchangeTransport) async throws -> Void) async throws {
        try await withTransport { transport in
            let context = InMemoryAPIContext(environment: APIEnvironment(.custom(try APIBaseURL(url)))!)
            let stack = APIClientStack(context: context, transport: transport, clientCredentials: .testClient)
            let shared = try #require(stack.client.transport as? SharedExchangeTransport)
            try await body(stack, shared)
        }
    }

    /// Waits until `count` callers wait on the shared exchange.
    func waitForCallers(_ count: Int, on shared: SharedExchangeTransport) async throws {
        let deadline = ContinuousClock.now + .seconds(20)
        while shared.callersInFlight < count {
            guard ContinuousClock.now < deadline else { throw TestTimeout(what: "\(count) callers, \(shared.callersInFlight) joined") }
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    /// Starts 100 calls of the top grossing list of `year`, held at the site's gate until all have joined.
    func hundredCalls(
        _ stack: APIClientStack, _ shared: SharedExchangeTransport, site: ReferenceSiteServer, year: Int = 2016
    ) async throws -> [Task<[Movie], any Error>] {
        await site.gate.close()
        let service = stack.movieService
        let calls = (0..<100).map { _ in Task { try await service.movies(.topGrossing, year: year) } }
        try await waitForCallers(100, on: shared)
        return calls
    }

    @Test("100 concurrent identical calls put one request on the wire, and all 100 get the list")
    func hundredShareOne() async throws {
        let site = ReferenceSiteServer()
        try await site.run { url in
            try await withStack(url) { stack, shared in
                let calls = try await hundredCalls(stack, shared, site: site)
                await site.gate.open()
                for call in calls {
                    let movies = try await call.value
                    #expect(movies.first?.name == "Finding Dory")
                }
                #expect(site.requests == 1)
                #expect(shared.callersInFlight == 0)

                _ = try await stack.movieService.movies(.topGrossing, year: 2016)
                #expect(site.requests == 2, "a call after the exchange ended is a new exchange")
            }
        }
    }

    @Test("a caller that cancels leaves at once; the other 99 are answered by the one request")
    func cancellingOneLeavesTheRest() async throws {
        let site = ReferenceSiteServer()
        try await site.run { url in
            try await withStack(url) { stack, shared in
                let calls = try await hundredCalls(stack, shared, site: site)
                calls[0].cancel()
                await #expect(throws: NetworkError.cancelled) { try await calls[0].value }
                #expect(shared.callersInFlight == 99)
                await site.gate.open()
                for call in calls.dropFirst() {
                    #expect(try await call.value.count == 10)
                }
                #expect(site.requests == 1)
            }
        }
    }

    @Test("callers with different credentials never share an exchange: two tokens, two requests on the wire")
    func credentialsAreNeverShared() async throws {
        let site = ReferenceSiteServer()
        try await site.run { url in
            try await withTransport { transport in
                let shared = SharedExchangeTransport(base: transport)
                await site.gate.close()
                let calls = (0..<100).map { index in
                    Task {
                        var endpoint = Endpoint(path: ["movies", "topGrossing", "2016"])
                        endpoint.headerFields[.authorization] = "Bearer token-\(index % 2 == 0 ? "alice" : "bob")"
                        return try await shared.send(try APIRequest(endpoint: endpoint, baseURL: url, defaultTimeout: .seconds(30)))
                    }
                }
                try await waitForCallers(100, on: shared)
                await site.gate.open()
                for call in calls {
                    #expect(try await call.value.status == .ok)
                }
                #expect(site.requests == 2, "one exchange per credential, fifty callers each")
            }
        }
    }

    @Test("a failure of the shared exchange reaches all 100 callers")
    func failureReachesAll() async throws {
        let site = ReferenceSiteServer()
        try await site.run { url in
            try await withStack(url) { stack, shared in
                let calls = try await hundredCalls(stack, shared, site: site, year: 1900)
                await site.gate.open()
                for call in calls {
                    await #expect { try await call.value } throws: { error in
                        guard case .status(code: 404, _) = error as? NetworkError else { return false }
                        return true
                    }
                }
                #expect(site.requests == 1)
            }
        }
    }
}

/// A wait in a test that did not end in time.
struct TestTimeout: Error, CustomStringConvertible {
    let what: String
    var description: String { "timed out waiting for \(what)" }
}
