import Foundation
import MarqueeTestSupport
import MovieServer
import NetworkTestSupport
import ReferenceAPI
import ServerTestSupport
import Testing

/// `--verbose` and `--curl`: what the app says about every exchange, and that it never shows a credential.
@Suite("The request log")
struct RequestLogTests {
    let store = TestFolders.temporary.appendingPathComponent("request-log-\(UUID().uuidString)/movies.sqlite")

    /// The exchange lines of a run's standard error.
    func exchanges(_ standardError: String) -> [String] {
        standardError.split(separator: "\n").map(String.init).filter { $0.contains(" → ") }
    }

    /// Every access and refresh token in the credentials file of `marquee`'s home.
    func storedSecrets(_ marquee: MarqueeProcess) throws -> [String] {
        let file = URL(fileURLWithPath: try #require(marquee.environment["XDG_CONFIG_HOME"])).appendingPathComponent("marquee/credentials.json")
        let text = try String(contentsOf: file, encoding: .utf8)
        return text.matches(of: /"(?:accessToken|refreshToken)"\s*:\s*"([^"]+)"/).map { String($0.output.1) }
    }

    @Test("a 401 then authorization, a 200, and a 304 the next run: every field, and no token or secret in any line")
    func authorizedAndRevalidated() async throws {
        try await withMovieServer(auth: AuthConfiguration()) { server in
            let marquee = MarqueeProcess()
            let url = "http://127.0.0.1:\(server.port)/api/movies/topGrossing/2016"
            let arguments = ["top-grossing", "--env", "http://127.0.0.1:\(server.port)/api/", "--store", store.path, "--verbose", "--curl"]

            let first = try await marquee.run(arguments)
            #expect(first.status == 0, "\(first.standardError)")
            let lines = first.errorLines.map(String.init)
            let firstExchanges = exchanges(first.standardError)
            try #require(firstExchanges.count == 3, "\(first.standardError)")
            #expect(firstExchanges[0].wholeMatch(of: #/marquee: info: GET (\S+) → 401 Unauthorized, \d+ bytes, [\d.]+ ms, attempt 1: failed: the server answered 401 .*/#)?.output.1 == Substring(url))
            #expect(firstExchanges[1].wholeMatch(of: #/marquee: info: POST \S+/api/auth/token → 200 OK, \d+ bytes, [\d.]+ ms, attempt 1: answered/#) != nil)
            let fresh = try #require(firstExchanges[2].wholeMatch(of: #/marquee: info: GET (\S+) → 200 OK, (\d+) bytes, [\d.]+ ms, attempt 2: fresh body/#))
            #expect(fresh.output.1 == Substring(url))
            #expect(Int(fresh.output.2) == ReferenceBodies.body(at: "movies/topGrossing/2016.json")?.count)
            #expect(lines.contains("marquee: info: Authorizing application…"))
            #expect(lines.contains("marquee: info: Authorized, the credential expires in 59 minutes"))
            #expect(lines.contains("marquee: info: GET \(url): retrying now (attempt 2)"))
            let order = ["→ 401", "Authorizing application…", "/auth/token → 200", "Authorized,", "retrying now", "attempt 2: fresh body"].map { step in
                lines.firstIndex { $0.contains(step) } ?? -1
            }
            #expect(order == order.sorted() && !order.contains(-1), "\(first.standardError)")

            let second = try await marquee.run(arguments)
            #expect(second.status == 0, "\(second.standardError)")
            #expect(exchanges(second.standardError).count == 1)
            #expect(exchanges(second.standardError).first?.wholeMatch(
                of: #/marquee: info: GET \S+ → 304 Not Modified, 0 bytes, [\d.]+ ms, attempt 1: revalidated \(304: the stored answer is current\)/#
            ) != nil, "\(second.standardError)")
            #expect(!second.standardError.contains("Authorizing"), "the stored credential is used")

            let secrets = try storedSecrets(marquee) + ["marquee-dev-secret"]
            #expect(secrets.count == 3)
            for secret in secrets {
                #expect(!first.standardError.contains(secret) && !second.standardError.contains(secret), "a credential was logged")
                #expect(!first.standardOutput.contains(secret) && !second.standardOutput.contains(secret))
            }
        }
    }

    @Test("--curl prints commands that, with the placeholders set, ask exactly what the app asked")
    func curlReplays() async throws {
        try await withMovieServer(auth: AuthConfiguration()) { server in
            let marquee = MarqueeProcess()
            let run = try await marquee.run(["top-rated", "--env", "http://127.0.0.1:\(server.port)/api/", "--store", store.path, "--curl", "--policy", "networkOnly"])
            #expect(run.status == 0, "\(run.standardError)")
            let commands = run.errorLines.filter { $0.hasPrefix("curl ") }.map(String.init)
            #expect(commands.count == 3, "the 401, the token request and the retry: \(run.standardError)")
            let tokenRequest = try #require(commands.first { $0.contains("/api/auth/token") })
            #expect(tokenRequest.contains("client_secret=${MARQUEE_CLIENT_SECRET}"))
            let retry = try #require(commands.last)
            #expect(retry.contains("\"Authorization: Bearer ${MARQUEE_ACCESS_TOKEN}\""))

            var shell = MarqueeProcess()
            shell.executable = URL(fileURLWithPath: "/bin/sh")
            let accessToken: String = try #require(try storedSecrets(marquee).first)
            shell.environment["MARQUEE_ACCESS_TOKEN"] = accessToken
            shell.environment["MARQUEE_CLIENT_SECRET"] = "marquee-dev-secret"
            let replayed = try await shell.run(["-c", retry + " --silent --show-error"])
            #expect(replayed.status == 0, "\(replayed.standardError)")
            #expect(Data(replayed.standardOutput.utf8) == ReferenceBodies.body(at: "movies/topRated/2016.json"))

            let token = try await shell.run(["-c", tokenRequest + " --silent --show-error"])
            #expect(token.standardOutput.contains("\"access_token\""), "\(token.standardOutput) \(token.standardError)")
            shell.environment["MARQUEE_ACCESS_TOKEN"] = "wrong"
            let refused = try await shell.run(["-c", retry + " --silent --output /dev/null --write-out '%{http_code}'"])
            #expect(refused.standardOutput == "401", "the placeholder is what carries the credential")
        }
    }

    @Test("a 503 retried until the attempts run out: one line an attempt, with the wait before each retry")
    func retriedServiceUnavailable() async throws {
        let faults = try await FaultServer.start()
        defer { Task { await faults.stop() } }
        let marquee = MarqueeProcess()
        let run = try await marquee.run(["top-grossing", "--env", faults.baseURL(for: .status503).absoluteString, "--store", store.path, "--verbose", "--policy", "networkOnly"])
        #expect(run.status != 0)
        let lines = exchanges(run.standardError)
        #expect(lines.count == 3, "\(run.standardError)")
        for (index, line) in lines.enumerated() {
            #expect(line.contains("GET \(faults.baseURL(for: .status503).absoluteString)movies/topGrossing/2016 → 503 Service Unavailable, "))
            #expect(line.contains("attempt \(index + 1): "))
        }
        #expect(lines.allSatisfy { $0.contains(": failed: the server answered 503") })
        let waits = run.errorLines.filter { $0.contains(": retrying in ") }
        #expect(waits.count == 2, "\(run.standardError)")
        #expect(waits.first?.hasSuffix("(attempt 2)") == true)
        #expect(run.errorLines.last?.hasPrefix("marquee: ") == true)
    }
}
