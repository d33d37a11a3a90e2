import Foundation
import MarqueeTestSupport
import MovieServer
import Movies
import ServerTestSupport
import Testing

/// `marquee browse` when the person's session is ended from another device, in a real terminal
/// against a real server: the sign-in screen comes within 2 s of the feed's end, the catalogue's
/// feed goes on live with the application's token, and nothing offers a change the screen cannot
/// make. Also whether each movie is on the watchlist, on the lists and the movie's page.
@Suite("Browse: signed out elsewhere, the watchlist's marks", .serialized, .timeLimit(.minutes(3)))
struct BrowseSignedOutElsewhereTests {
    let browse = BrowseTerminalTests()

    @Test("a movie on the list is marked on the lists and its page, w says which way it goes; after a sign-out elsewhere the sign-in shows within 2 s of the feed's end, and the catalogue stays live")
    func signedOutElsewhere() async throws {
        var feed = FeedSettings()
        feed.heartbeat = .milliseconds(500)
        try await withMovieServer(auth: LoginFlow.auth(), storage: MemoryStorage(catalog: try Catalog.reference()), feed: feed) { server in
            let api = server.baseURL.absoluteString
            let here = try TemporaryConfigHome(), elsewhere = try TemporaryConfigHome()
            #expect(try await LoginFlow.login(here.marquee, api: api, port: server.port, as: "alice").status == 0)
            #expect(try await LoginFlow.login(elsewhere.marquee, api: api, port: server.port, as: "alice", signUp: false).status == 0)
            #expect(try await here.marquee.run(["watch", "add", "6", "--note", "alice's pick", "--env", api]).status == 0)
            var environment = here.marquee.environment
            environment["NO_COLOR"] = "1"
            let terminal = try await TmuxTerminal.start(
                command: try browse.browseScript(["--env", api, "--store", browse.store.path]), environment: environment, width: 120, height: 30
            )
            defer { terminal.kill() }
            // Deadpool (6) is the sixth of the top grossing, on alice's list; Finding Dory, the first, is not.
            // The key line is drawn after the rows and the status line, and may change in their frame
            // (w watchlist before the list came): tmux may be read before it is.
            let lists = try await terminal.waitForScreen("the list, Deadpool marked, live, Finding Dory selected (w add)") { screen in
                screen.contains { $0.contains("Deadpool (2016)") && $0.contains("✓") } && screen.contains { $0.hasPrefix("from the network") && $0.hasSuffix(" live") }
                    && screen[29].contains("w add")
            }
            #expect(lists.filter { $0.contains("✓") }.count == 1, "\(lists)")
            try await terminal.send("Down", "Down", "Down", "Down", "Down")
            _ = try await terminal.waitForScreen("w remove on Deadpool") { $0.contains { $0.hasPrefix(" ›  6  Deadpool (2016)") } && $0[29].contains("w remove") }
            try await terminal.send("Enter")
            _ = try await terminal.waitForText(" Watchlist ✓ on your watchlist (w removes it)")
            try await terminal.send("Escape", "Left")
            _ = try await terminal.waitForScreen("alice's list, live") { screen in
                screen.contains { $0.contains("alice's pick") } && screen.contains { $0.hasPrefix("1 movie on the watchlist") && $0.hasSuffix(" live") }
            }

            #expect(try await elsewhere.marquee.run(["logout", "--everywhere", "--env", api]).status == 0)
            let signedOut = ContinuousClock.now
            // alice's pick was on the row below the one that says "Sign in", overwritten in the same
            // frame: tmux may be read between the two.
            _ = try await terminal.waitForScreen(timeLimit: .seconds(20), "the sign-in screen, without alice's list") { screen in
                screen.contains { $0.contains("Sign in to see your watchlist") } && !screen.contains { $0.contains("alice's pick") }
            }
            let took = ContinuousClock.now - signedOut
            // The server ends the stream at its next heartbeat (500 ms); the screen follows within 2 s.
            #expect(took < .milliseconds(2_500), "the sign-in screen took \(took)")
            let keys = try await terminal.waitForScreen("the sign-in's keys") { $0.contains { $0.contains("and enter the code") } }
            #expect(!keys[29].contains("w remove") && !keys[29].contains("r sync"), "\(keys[29])")

            try await terminal.send("Right")
            let catalogue = try await terminal.waitForScreen(timeLimit: .seconds(10), "the catalogue, live on the application's token") { screen in
                screen.contains { $0.hasPrefix("from the network") && $0.hasSuffix(" live") }
            }
            #expect(!catalogue.contains { $0.contains("not live") })
            #expect(!catalogue.contains { $0.contains("✓") }, "nothing is marked while nobody is signed in")
            try await terminal.send("q")
            try await browse.expectRestored(terminal, status: 0)
        }
    }
}
