import Foundation
import MarqueeTestSupport
import MovieAPI
import MovieServer
import NIOConcurrencyHelpers
import ServerTestSupport
import Testing

/// The app's stored credential across runs, against a test server whose grant ledger counts
/// what really happened.
@Suite("Credential persistence")
struct CredentialPersistenceTests {
    @Test("a second run reuses the stored token; an expired one is refreshed; status never shows it; logout forgets it")
    func reusesRefreshesAndForgets() async throws {
        let clock = ManualClock(Date())
        try await withMovieServer(auth: AuthConfiguration(now: clock.now)) { server in
            let home = try TemporaryConfigHome()
            let marquee = home.marquee
            let api = server.baseURL.absoluteString

            let first = try await marquee.run(["top-grossing", "--env", api])
            #expect(first.status == 0, "\(first.standardError)")
            #expect(server.grants == GrantLedger.Counts(clientCredentials: 1))

            let second = try await marquee.run(["top-rated", "--env", api])
            #expect(second.status == 0, "\(second.standardError)")
            #expect(server.grants == GrantLedger.Counts(clientCredentials: 1), "the second run must not ask for a token")

            let attributes = try FileManager.default.attributesOfItem(atPath: home.credentialsFile.path)
            #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
            let token = try home.storedAccessToken(for: api)

            let status = try await marquee.run(["auth", "status", "--env", api])
            #expect(status.standardOutput.contains("Signed in to \(api) as the client marquee-dev; the access token expires in"), "\(status.standardOutput)")

            clock.advance(by: 3601 + 60)
            let third = try await marquee.run(["movie", "6", "--env", api])
            #expect(third.status == 0, "\(third.standardError)")
            #expect(server.grants == GrantLedger.Counts(clientCredentials: 1, refreshToken: 1))

            let logout = try await marquee.run(["auth", "forget", "--env", api])
            #expect(logout.standardOutput == "Forgot the client's own credential for \(api); the next request gets a new one.\n")
            let after = try await marquee.run(["auth", "status", "--env", api])
            #expect(after.standardOutput == "Nobody is signed in to \(api); sign in with 'marquee login'.\nThe client marquee-dev holds no credential of its own for \(api).\nThe API is chosen by --env.\n")

            for outcome in [first, second, status, third, logout, after] {
                #expect(!outcome.standardOutput.contains(token) && !outcome.standardError.contains(token))
                #expect(!outcome.standardOutput.contains("marquee-dev-secret") && !outcome.standardError.contains("marquee-dev-secret"))
            }
        }
    }

    @Test("another spelling of the same --env (HTTP, no trailing slash) is the same API: its stored list and its credential are found again")
    func spellingsAreOneAPI() async throws {
        try await withMovieServer(auth: AuthConfiguration()) { server in
            let home = try TemporaryConfigHome()
            let store = home.root.appendingPathComponent("movies.sqlite").path
            let api = server.baseURL.absoluteString
            let shouted = "HTTP://127.0.0.1:\(server.port)/api"
            #expect(api == "http://127.0.0.1:\(server.port)/api/")

            let first = try await home.marquee.run(["top-grossing", "--env", api, "--store", store])
            #expect(first.status == 0, "\(first.standardError)")
            let offline = try await home.marquee.run(["top-grossing", "--env", shouted, "--store", store, "--offline", "--json"])
            #expect(offline.status == 0, "\(offline.standardError)")
            let answer = try JSONSerialization.jsonObject(with: Data(offline.standardOutput.utf8)) as? [String: Any]
            #expect(answer?["source"] as? String == "store", "the list stored under the first spelling: \(offline.standardOutput)")
            let second = try await home.marquee.run(["top-rated", "--env", shouted, "--store", store])
            #expect(second.status == 0, "\(second.standardError)")
            #expect(server.grants == GrantLedger.Counts(clientCredentials: 1), "the credential stored under the first spelling is used")
            let status = try await home.marquee.run(["auth", "status", "--env", shouted])
            #expect(status.standardOutput.contains("Signed in to \(api) as the client marquee-dev;"), "\(status.standardOutput)")
        }
    }

    @Test("a corrupt credentials file is a one-line warning and a sign-in for the run; the file is left as it was", arguments: ["{not json", "", #"{"version":1,"credentials":{"x":42}}"#])
    func toleratesCorruptFiles(contents: String) async throws {
        try await withMovieServer(auth: AuthConfiguration()) { server in
            let home = try TemporaryConfigHome()
            try FileManager.default.createDirectory(at: home.credentialsFile.deletingLastPathComponent(), withIntermediateDirectories: true)
            #expect(FileManager.default.createFile(atPath: home.credentialsFile.path, contents: Data(contents.utf8), attributes: [.posixPermissions: 0o600]))

            let outcome = try await home.marquee.run(["top-grossing", "--env", server.baseURL.absoluteString])
            #expect(outcome.status == 0)
            #expect(outcome.standardOutput.contains("Finding Dory (2016)"))
            #expect(outcome.errorLines.count == 1)
            #expect(outcome.standardError.hasPrefix("marquee: warning: the credentials file \(home.credentialsFile.path) is not valid"))
            #expect(server.grants.clientCredentials == 1)
            #expect(try Data(contentsOf: home.credentialsFile) == Data(contents.utf8))
        }
    }

    @Test("a watchlist change with a corrupt credentials file names the file, not 'nobody is signed in'")
    func watchlistNamesCorruptFile() async throws {
        try await withMovieServer(auth: AuthConfiguration()) { server in
            let home = try TemporaryConfigHome()
            try FileManager.default.createDirectory(at: home.credentialsFile.deletingLastPathComponent(), withIntermediateDirectories: true)
            #expect(FileManager.default.createFile(atPath: home.credentialsFile.path, contents: Data("{not json".utf8), attributes: [.posixPermissions: 0o600]))

            let outcome = try await home.marquee.run(["watch", "add", "6", "--env", server.baseURL.absoluteString])
            #expect(outcome.status != 0)
            #expect(outcome.errorLines.count == 1, "\(outcome.standardError)")
            #expect(outcome.standardError.contains("the credentials file \(home.credentialsFile.path) is not valid"))
            #expect(outcome.standardError.contains("nothing was changed"))
            #expect(!outcome.standardError.contains("nobody is signed in"))
        }
    }
}

/// An empty `XDG_CONFIG_HOME` for one test, and a `marquee` that uses it.
struct TemporaryConfigHome: Sendable {
    let root: URL
    let marquee: MarqueeProcess

    init() throws {
        root = TestFolders.temporary.appendingPathComponent("marquee-config-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        var process = MarqueeProcess()
        process.environment["XDG_CONFIG_HOME"] = root.path
        marquee = process
    }

    var credentialsFile: URL { root.appendingPathComponent("marquee/credentials.json") }

    /// The key of the development client's own credential for `api` in the credentials file.
    static func applicationKey(_ api: String, client: APIClientCredentials = APIClientCredentials(id: "marquee-dev", secret: "marquee-dev-secret")) -> String {
        CredentialHolder.application(client).key(for: APIIdentity(baseURL: try! APIBaseURL(api)))
    }

    func storedAccessToken(for api: String) throws -> String {
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: credentialsFile)) as? [String: Any]
        let credentials = json?["credentials"] as? [String: [String: Any]]
        return try #require(credentials?[Self.applicationKey(api)]?["accessToken"] as? String)
    }
}
