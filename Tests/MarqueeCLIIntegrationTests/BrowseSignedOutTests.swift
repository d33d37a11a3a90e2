import Foundation
import MarqueeTestSupport
import MovieContract
import MovieServer
import MovieStore
import Movies
import NetworkTestSupport
import ServerTestSupport
import Testing

/// `w` in `marquee browse` with nobody signed in, in a real terminal against a real server: it
/// never queues a change that a later sign-in would send over the person's own list.
@Suite("Browse: w while signed out", .serialized, .timeLimit(.minutes(3)))
struct BrowseSignedOutTests {
    let browse = BrowseTerminalTests()

    @Test("w on a movie with nobody signed in leads to the sign-in screen; once alice approves, her note on that movie is still hers and nothing was sent")
    func wLeadsToTheSignIn() async throws {
        let storage = MemoryStorage(catalog: try Catalog.reference())
        try await withMovieServer(auth: LoginFlow.auth(), storage: storage) { server in
            _ = try await server.server.accounts.create(name: "alice", password: "correct horse")
            let owner = storage.owner(ofAccount: "alice")
            let pick = WatchlistChangeRecord(id: "a1", movieID: 6, action: .add, note: "alice's pick", changedAt: 1_700_000_000_000, device: "d")
            _ = storage.applyWatchlist(WatchlistWrite(owner: owner, key: "a1", request: "PUT", body: Data(), changes: [pick], shape: .single), now: Date())
            var marquee = MarqueeProcess()
            marquee.environment["NO_COLOR"] = "1"
            let api = server.baseURL.absoluteString
            let terminal = try await TmuxTerminal.start(
                command: try browse.browseScript(["--env", api, "--store", browse.store.path]), environment: marquee.environment, width: 120, height: 30
            )
            defer { terminal.kill() }
            _ = try await terminal.waitForText("from the network")
            // Deadpool, on alice's list with her note, is the sixth of the top grossing.
            try await terminal.send("Down", "Down", "Down", "Down", "Down")
            _ = try await terminal.waitForText("›  6  Deadpool (2016)")
            try await terminal.send("w")
            // The sign-in screen and the status line that says why are drawn in one frame, but tmux may
            // be read between the two; and the code ends its line.
            let prompt = try await terminal.waitForScreen("the sign-in code, and why w changed nothing") { screen in
                screen.contains { $0.firstMatch(of: /and enter the code [A-Z]{4}-[A-Z]{4}/) != nil }
                    && screen.contains { $0.contains("sign in first: the watchlist is a person's (nothing was changed)") }
            }
            let code = try #require(prompt.compactMap { $0.firstMatch(of: /the code ([A-Z]{4}-[A-Z]{4})/).map { String($0.1) } }.first)
            #expect(try await PageClient(port: server.port).decide(code, as: "alice", signUp: false).status == 200)
            _ = try await terminal.waitForScreen(timeLimit: .seconds(60), "alice's list") { $0.contains { $0.contains("alice's pick") } }
            try await terminal.send("r")
            _ = try await terminal.waitForScreen("synced") { screen in screen.contains { $0.contains("1 movie on the watchlist") && !$0.contains("syncing") } }
            try await terminal.send("q")
            try await browse.expectRestored(terminal, status: 0)
            #expect(storage.watchlistJournal(owner: owner).map(\.changeID) == ["a1"], "nothing was sent for her")
            #expect(storage.watchlist(owner: owner).map(\.note) == ["alice's pick"])
        }
    }

    @Test("offline with the account signed out, w changes nothing, says who must sign in, and leaves nothing pending")
    func offlineSignedOut() async throws {
        try await withMovieServer(auth: LoginFlow.auth()) { server in
            var marquee = MarqueeProcess()
            marquee.environment["NO_COLOR"] = "1"
            let api = server.baseURL.absoluteString
            let client = ["--env", api, "--store", browse.store.path]
            #expect(try await marquee.run(["top-grossing"] + client).status == 0)
            let terminal = try await TmuxTerminal.start(
                command: try browse.browseScript(client + ["--offline", "--account", "bob"]), environment: marquee.environment, width: 120, height: 30
            )
            defer { terminal.kill() }
            _ = try await terminal.waitForText("from the local store")
            try await terminal.send("w")
            let refused = try await terminal.waitForText("run 'marquee login' to change the watchlist")
            #expect(refused.contains { $0.hasPrefix("the watchlist was not changed: bob is not signed in: run 'marquee login' to change the watchlist") }, "\(refused)")
            try await terminal.send("q")
            try await browse.expectRestored(terminal, status: 0)
            let store = try MovieStore(url: browse.store)
            #expect(try await store.pendingWatchlistChangeCount(api: WatchlistScope.key(api: api, account: "bob")) == 0)
        }
    }
}
