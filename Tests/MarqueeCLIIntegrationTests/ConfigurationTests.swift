import Foundation
import MarqueeTestSupport
import MovieAPI
import NetworkTestSupport
import Networking
import Testing

/// Settings that reach the app only from the command line or the environment: cache policies and
/// ages, and the server's client and signing key.
@Suite("Configuration through the app", .timeLimit(.minutes(2)))
struct ConfigurationTests {
    let marquee = MarqueeProcess()

    @Test("--policy networkOnly never falls back to the store; --max-age decides whether cacheElseNetwork asks at all")
    func policiesThroughTheCLI() async throws {
        let store = TestFolders.temporary.appendingPathComponent("policies-\(UUID().uuidString)/movies.sqlite").path
        #expect(try await marquee.run(["top-rated", "--env", "stub:success", "--store", store]).status == 0)

        let networkOnly = try await marquee.run(["top-rated", "--env", "stub:noNetwork", "--store", store, "--policy", "networkOnly"])
        #expect(networkOnly.status != 0)
        #expect(networkOnly.errorLines == ["marquee: cannot connect to stub.marquee.invalid:80 (connection refused (stub scenario noNetwork)); is the server running and the address right?"])

        let young = try await marquee.run(["top-rated", "--env", "stub:noNetwork", "--store", store, "--policy", "cacheElseNetwork", "--max-age", "3600"])
        #expect(young.status == 0)
        #expect(young.standardOutput.contains(recentAge("(from the local store, fetched ", ")")), "young enough: the network is not asked, so no error")

        let tooOld = try await marquee.run(["top-rated", "--env", "stub:noNetwork", "--store", store, "--policy", "cacheElseNetwork", "--max-age", "0"])
        #expect(tooOld.status == 0)
        #expect(tooOld.standardOutput.contains("network unavailable: cannot connect to stub.marquee.invalid:80"), "too old: the network is asked, and fails")

        let negative = try await marquee.run(["top-rated", "--max-age", "-1"])
        #expect(negative.status != 0)
        #expect(negative.errorLines.count == 1)
    }

    @Test("serve takes its client from MARQUEE_CLIENT_ID/SECRET or --client-id/--client-secret, and its key from MARQUEE_SIGNING_KEY")
    func serverSettings() async throws {
        var alice = marquee
        alice.environment["MARQUEE_CLIENT_ID"] = "alice"
        alice.environment["MARQUEE_CLIENT_SECRET"] = "alice-secret"
        alice.environment["MARQUEE_SIGNING_KEY"] = "a key both servers share"
        let fromEnvironment = try alice.launch(["serve", "--port", "0"])
        let first = try await Self.baseURL(of: fromEnvironment)

        var flags = marquee
        flags.environment["MARQUEE_SIGNING_KEY"] = "a key both servers share"
        let fromFlags = try flags.launch(["serve", "--port", "0", "--client-id", "alice", "--client-secret", "alice-secret"])
        let second = try await Self.baseURL(of: fromFlags)
        let otherKey = try marquee.launch(["serve", "--port", "0", "--client-id", "alice", "--client-secret", "alice-secret"])
        let third = try await Self.baseURL(of: otherKey)

        let asAlice = try await alice.run(["top-grossing", "--env", first])
        #expect(asAlice.status == 0, "\(asAlice.standardError)")
        let asDefault = try await MarqueeProcess().run(["top-grossing", "--env", first])
        #expect(asDefault.status != 0)
        #expect(asDefault.standardError.hasPrefix("marquee: authentication failed: the server refused to issue a credential"))
        #expect(!asDefault.standardError.contains("marquee-dev-secret"))

        try await withTransport { transport in
            let token = try await APIAuthService(
                client: APIClient(baseURL: URL(string: first)!, transport: transport),
                clientCredentials: APIClientCredentials(id: "alice", secret: "alice-secret")
            ).authorize().accessToken
            let movie = Endpoint(path: ["movies", "1"], headerFields: [.authorization: "Bearer \(token)"], requiresAuthentication: false)
            _ = try await APIClient(baseURL: URL(string: second)!, transport: transport).send(movie)
            await #expect(throws: NetworkError.self, "a token signed with another key is refused") {
                try await APIClient(baseURL: URL(string: third)!, transport: transport).send(movie)
            }
        }
        for server in [fromEnvironment, fromFlags, otherKey] { #expect(await server.signal() == 0) }
    }

    static func baseURL(of server: ChildProcess) async throws -> String {
        let line = try #require(await server.nextErrorLine(containing: "Marquee movie API listening on"))
        return try #require(line.split(separator: " ").last.map(String.init))
    }
}
