import Foundation
import MarqueeTestSupport
import MovieContract
import MovieServer
import Movies
import NetworkTestSupport
import ServerTestSupport
import Testing

/// `marquee browse` and the sign-ins made outside it, in a real terminal against a real server: a
/// `marquee login` in another terminal is taken as it is made, and a code that expired says so and
/// how to get a new one.
@Suite("Browse: a sign-in elsewhere, an expired code", .serialized, .timeLimit(.minutes(3)))
struct BrowseSignInElsewhereTests {
    let browse = BrowseTerminalTests()

    @Test("with its sign-in screen up, a 'marquee login' in another terminal turns the Watchlist segment into the person's list without a key; r then syncs, with no new code")
    func loginInAnotherTerminal() async throws {
        let storage = MemoryStorage(catalog: try Catalog.reference())
        try await withMovieServer(auth: LoginFlow.auth(), storage: storage) { server in
            _ = try await server.server.accounts.create(name: "alice", password: "correct horse")
            let pick = WatchlistChangeRecord(id: "a1", movieID: 6, action: .add, note: "alice's pick", changedAt: 1_700_000_000_000, device: "d")
            _ = storage.applyWatchlist(WatchlistWrite(owner: storage.owner(ofAccount: "alice"), key: "a1", request: "PUT", body: Data(), changes: [pick], shape: .single), now: Date())
            let api = server.baseURL.absoluteString
            let here = try TemporaryConfigHome()
            var environment = here.marquee.environment
            environment["NO_COLOR"] = "1"
            let terminal = try await TmuxTerminal.start(
                command: try browse.browseScript(["--env", api, "--store", browse.store.path]), environment: environment, width: 120, height: 30
            )
            defer { terminal.kill() }
            _ = try await terminal.waitForText("from the network")
            try await terminal.send("Left")
            _ = try await terminal.waitForText("and enter the code")

            #expect(try await LoginFlow.login(here.marquee, api: api, port: server.port, as: "alice", signUp: false).status == 0)
            let list = try await terminal.waitForScreen(timeLimit: .seconds(5), "alice's list, no key pressed") { screen in
                screen.contains { $0.contains("alice's pick") }
            }
            #expect(!list.contains { $0.contains("and enter the code") })
            try await terminal.send("r")
            let synced = try await terminal.waitForScreen("synced") { screen in
                screen.contains { $0.hasPrefix("1 movie on the watchlist") && !$0.contains("syncing") && !$0.contains("signing in") }
            }
            #expect(!synced.contains { $0.contains("and enter the code") || $0.contains("Sign in to see your watchlist") }, "no new code: \(synced)")
            try await terminal.send("q")
            try await browse.expectRestored(terminal, status: 0)
        }
    }

    @Test("a code that expired says so on the sign-in screen, with r for a new one; r shows a new code")
    func expiredCode() async throws {
        var auth = LoginFlow.auth()
        auth.deviceCodeLifetime = .seconds(2)
        try await withMovieServer(auth: auth) { server in
            let api = server.baseURL.absoluteString
            let here = try TemporaryConfigHome()
            var environment = here.marquee.environment
            environment["NO_COLOR"] = "1"
            let terminal = try await TmuxTerminal.start(
                command: try browse.browseScript(["--env", api, "--store", browse.store.path]), environment: environment, width: 120, height: 30
            )
            defer { terminal.kill() }
            _ = try await terminal.waitForText("from the network")
            try await terminal.send("Left")
            // The code ends the line that says "and enter the code": wait for the whole of it.
            let prompt = try await terminal.waitForScreen("the sign-in code") { screen in
                screen.contains { $0.firstMatch(of: /and enter the code [A-Z]{4}-[A-Z]{4}/) != nil }
            }
            let first = try #require(prompt.compactMap { $0.firstMatch(of: /the code ([A-Z]{4}-[A-Z]{4})/).map { String($0.1) } }.first)
            // The device flow polls every 5 s: the first poll finds the code expired.
            // The body, the status line and the key line are drawn in one frame, in that order, but
            // tmux may be read between two of them.
            let expired = try await terminal.waitForScreen(timeLimit: .seconds(30), "the code expired, said in the body, the status line and the key line") { screen in
                screen.contains { $0.contains("the code expired") }
                    && screen.contains { $0.hasPrefix("not signed in: press r for a new code") }
                    && screen.last { !$0.isEmpty }?.contains("r new code") == true
            }
            #expect(expired.contains { $0.contains("Press r for a new code") }, "\(expired)")
            #expect(!expired.contains { $0.contains("and enter the code") })
            try await terminal.send("r")
            let again = try await terminal.waitForScreen("a new code") { screen in
                screen.contains { $0.contains("and enter the code") && !$0.contains(first) }
            }
            #expect(again.contains { $0.contains("Sign in to see your watchlist") })
            try await terminal.send("q")
            try await browse.expectRestored(terminal, status: 0)
        }
    }
}
