import Foundation
import MarqueeTestSupport
import MovieAPI
import MovieServer
import NetworkTestSupport
import ServerTestSupport
import Testing

/// `marquee login`, `logout` and `auth status|use` against a real server, with a person approving
/// on the real sign-in page; and the bug of one client's token sent for another.
@Suite("Signing in from the terminal")
struct SignInCommandTests {

    @Test("login prints the page, the code and the complete link, waits, and names the account; the first is the default; status lists people and the client; logout ends the session at the server")
    func loginStatusLogout() async throws {
        let storage = MemoryStorage(catalog: try Catalog.reference())
        try await withMovieServer(auth: LoginFlow.auth(), storage: storage) { server in
            let home = try TemporaryConfigHome()
            let api = server.baseURL.absoluteString
            let alice = try await LoginFlow.login(home.marquee, api: api, port: server.port, as: "alice")
            #expect(alice.status == 0)
            #expect(alice.outcome == "Signed in to \(api) as alice (through the client marquee-dev); it is the default account.")
            let bob = try await LoginFlow.login(home.marquee, api: api, port: server.port, as: "bob")
            #expect(bob.outcome?.hasPrefix("Signed in to \(api) as bob (through the client marquee-dev); use --account bob") == true)

            let status = try await home.marquee.run(["auth", "status", "--env", api])
            let lines = status.standardOutput.split(separator: "\n").map(String.init)
            #expect(lines.contains { $0.hasPrefix("Signed in to \(api) as alice (the default account); the access token expires in") })
            #expect(lines.contains { $0.hasPrefix("Signed in to \(api) as bob; the access token expires in") })
            let file = try String(contentsOf: home.credentialsFile, encoding: .utf8)
            for token in try Self.accessTokens(in: home) { #expect(!status.standardOutput.contains(token)) }
            #expect(file.contains("account:alice"))

            #expect(try await home.marquee.run(["auth", "use", "bob", "--env", api]).standardOutput == "bob is now the default account of \(api).\n")
            let stranger = try await home.marquee.run(["auth", "use", "carol", "--env", api])
            #expect(stranger.status != 0)
            #expect(stranger.errorLines == ["marquee: carol is not signed in to \(api); run 'marquee login' first"])

            #expect(storage.deviceSignIns(ofAccount: "alice").count == 1)
            let logout = try await home.marquee.run(["logout", "--env", api, "--account", "alice"])
            #expect(logout.standardOutput == "Signed alice out of \(api); the session was ended at the server.\n")
            #expect(storage.deviceSignIns(ofAccount: "alice").isEmpty)
            #expect(storage.signIns(ofAccount: "alice").count == 1, "the page alice approved it on is a session of its own")
            #expect(storage.deviceSignIns(ofAccount: "bob").count == 1)

            let everywhere = try await home.marquee.run(["logout", "--env", api, "--everywhere"])
            #expect(everywhere.standardOutput == "Signed bob out of \(api); every device of bob was signed out.\n", "\(everywhere.standardError)")
            #expect(storage.signIns(ofAccount: "bob").isEmpty)
            let nobody = try await home.marquee.run(["auth", "status", "--env", api])
            #expect(nobody.standardOutput.hasPrefix("Nobody is signed in to \(api); sign in with 'marquee login'."))
        }
    }

    @Test("a denied sign-in ends non-zero in one line and stores nothing; the embedded API has no accounts to sign in to")
    func deniedAndEmbedded() async throws {
        try await withMovieServer(auth: LoginFlow.auth()) { server in
            let home = try TemporaryConfigHome()
            let api = server.baseURL.absoluteString
            let denied = try await LoginFlow.login(home.marquee, api: api, port: server.port, as: "alice", approve: false)
            #expect(denied.status == 1)
            #expect(denied.outcome == "marquee: the sign-in was denied on the page; nothing was signed in")
            let stored = (try? String(contentsOf: home.credentialsFile, encoding: .utf8)) ?? ""
            #expect(!stored.contains("account:"))
            let embedded = try await home.marquee.run(["login"])
            #expect(embedded.status == 1)
            #expect(embedded.errorLines == ["marquee: the embedded API lasts one run and has no accounts to sign in to; choose a server with --env URL"])
        }
    }

    @Test("MARQUEE_CLIENT_ID=bob after a run as alice gets bob's own token, and a wrong secret gets none: never alice's")
    func clientsNeverShareAToken() async throws {
        let alice = ClientCredentials(id: "alice-app", secret: "alice-secret")
        let bob = ClientCredentials(id: "bob-app", secret: "bob-secret")
        try await withMovieServer(auth: LoginFlow.auth(clients: [alice, bob])) { server in
            let home = try TemporaryConfigHome()
            let api = server.baseURL.absoluteString
            let asAlice = try await home.marquee.run(["top-grossing", "--env", api], environment: ["MARQUEE_CLIENT_ID": alice.id, "MARQUEE_CLIENT_SECRET": alice.secret])
            #expect(asAlice.status == 0, "\(asAlice.standardError)")
            let wrongSecret = try await home.marquee.run(["top-rated", "--env", api], environment: ["MARQUEE_CLIENT_ID": bob.id, "MARQUEE_CLIENT_SECRET": "not bob's"])
            #expect(wrongSecret.status != 0, "a wrong secret finds no token to use")
            let asBob = try await home.marquee.run(["top-rated", "--env", api], environment: ["MARQUEE_CLIENT_ID": bob.id, "MARQUEE_CLIENT_SECRET": bob.secret])
            #expect(asBob.status == 0)
            #expect(server.grants.clientCredentials == 2, "alice's grant and bob's own")
            let stillAlice = try await home.marquee.run(["movie", "6", "--env", api], environment: ["MARQUEE_CLIENT_ID": alice.id, "MARQUEE_CLIENT_SECRET": alice.secret])
            #expect(stillAlice.status == 0)
            #expect(server.grants.clientCredentials == 2, "alice's stored token is hers again")
        }
    }

    static func accessTokens(in home: TemporaryConfigHome) throws -> [String] {
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: home.credentialsFile)) as? [String: Any]
        let credentials = json?["credentials"] as? [String: [String: Any]] ?? [:]
        return credentials.values.compactMap { $0["accessToken"] as? String }
    }

    @Test("Ctrl-C while login waits ends it by the signal, with no backtrace and nothing stored")
    func interrupted() async throws {
        try await withMovieServer(auth: LoginFlow.auth()) { server in
            let home = try TemporaryConfigHome()
            let process = try home.marquee.launch(["login", "--env", server.baseURL.absoluteString])
            #expect(await process.nextOutputLine(containing: "Ctrl-C stops") != nil)
            let status = await process.signal(SIGINT)
            #expect(process.termination?.reason == .uncaughtSignal && status == SIGINT, "\(process.lastOutput)")
            #expect(!process.lastOutput.contains("Backtrac") && !process.lastOutput.contains("Fatal"), "\(process.lastOutput)")
            let stored = (try? String(contentsOf: home.credentialsFile, encoding: .utf8)) ?? ""
            #expect(!stored.contains("account:"))
        }
    }
}
