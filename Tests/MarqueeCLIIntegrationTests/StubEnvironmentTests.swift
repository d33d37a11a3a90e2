import Foundation
import MarqueeTestSupport
import Testing

/// `--env stub:<scenario>`: every command on the stub transport with the bundled reference bodies.
@Suite("marquee --env stub")
struct StubEnvironmentTests {
    let marquee = MarqueeProcess()

    @Test("stub:success prints the reference list with no server and no network")
    func success() async throws {
        let outcome = try await marquee.run(["top-grossing", "--env", "stub:success"])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        let rows = CommandOutput.rankedRows(outcome.standardOutput)
        #expect(rows.count == 10)
        #expect(rows.first?.contains("Finding Dory (2016)") == true)
        #expect(rows.last?.contains("Doctor Strange (2016)") == true)
    }

    @Test("stub:noNetwork shows the stored list and the error, like the article's offline case")
    func noNetwork() async throws {
        _ = try await marquee.run(["top-rated", "--env", "stub:success"])
        let outcome = try await marquee.run(["top-rated", "--env", "stub:noNetwork"])
        #expect(outcome.status == 0)
        #expect(CommandOutput.rankedRows(outcome.standardOutput).first?.contains("Zootopia (2016)") == true)
        #expect(outcome.standardOutput.contains("network unavailable: cannot connect to stub.marquee.invalid:80"))

        let nothingStored = try await marquee.run(["top-grossing", "--year", "2015", "--env", "stub:noNetwork"])
        #expect(nothingStored.status != 0)
        #expect(nothingStored.errorLines.count == 1)
        #expect(nothingStored.standardError.hasPrefix("marquee: cannot connect to stub.marquee.invalid:80"))
    }

    @Test("stub:invalidPermissions fails with the 403 after one re-authorization")
    func invalidPermissions() async throws {
        let outcome = try await marquee.run(["movie", "6", "--env", "stub:invalidPermissions"])
        #expect(outcome.status != 0)
        #expect(outcome.errorLines == ["marquee: the server answered 403 Forbidden: This client may not read movies."])
    }

    @Test("stub:timeout retries once and fails at the call's 3 s deadline")
    func timeout() async throws {
        let outcome = try await marquee.run(["top-rated", "--env", "stub:timeout", "--policy", "networkOnly"])
        #expect(outcome.status != 0)
        #expect(outcome.errorLines == ["marquee: the server did not answer within 3 s; try again later, or allow longer with --timeout SECONDS"], "the call's deadline, across the retry")
    }

    @Test("an unknown scenario is a bad argument")
    func unknownScenario() async throws {
        let outcome = try await marquee.run(["top-rated", "--env", "stub:sunny"])
        #expect(outcome.status != 0)
        #expect(outcome.errorLines.count == 1)
    }
}
