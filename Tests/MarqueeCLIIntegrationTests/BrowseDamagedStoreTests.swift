import Foundation
import MarqueeTestSupport
import MovieServer
import Movies
import ServerTestSupport
import Testing

/// `marquee browse` on a damaged store, in a real terminal against a real server: the screen says
/// the store keeps nothing this run, on every screen, and `w` is refused where it is pressed, so
/// that no change is shown as pending and then lost when the run ends.
@Suite("Browse on a damaged store", .serialized, .timeLimit(.minutes(3)))
struct BrowseDamagedStoreTests {
    let browse = BrowseTerminalTests()

    @Test("the store's problem is on screen beside the network's answer; w on the Watchlist segment is refused and says why; the server keeps the movie")
    func damagedStore() async throws {
        let storage = MemoryStorage(catalog: try Catalog.reference())
        try await withMovieServer(auth: LoginFlow.auth(), storage: storage) { server in
            let api = server.baseURL.absoluteString
            let here = try TemporaryConfigHome()
            #expect(try await LoginFlow.login(here.marquee, api: api, port: server.port, as: "alice").status == 0)
            let client = ["--env", api, "--store", browse.store.path]
            #expect(try await here.marquee.run(["watch", "add", "6", "--note", "alice's pick"] + client).status == 0)
            try damageDatabase(at: browse.store)
            var environment = here.marquee.environment
            environment["NO_COLOR"] = "1"
            let terminal = try await TmuxTerminal.start(command: try browse.browseScript(client), environment: environment, width: 120, height: 30)
            defer { terminal.kill() }
            let warning = " ! nothing is kept on this machine this run: the movie store"
            let lists = try await terminal.waitForScreen("the network's list and the store's problem") { screen in
                screen.contains { $0.hasPrefix("from the network") } && screen.contains { $0.hasPrefix(warning) }
            }
            let shown = try #require(lists.firstIndex { $0.hasPrefix(warning) })
            let words = lists[shown..<28].map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
            #expect(words.contains("\(browse.store.path) is damaged"), "the lines above the status line: \(lists)")
            #expect(words.contains("move the file away, or start over with: marquee cache clear"))

            try await terminal.send("Left")
            _ = try await terminal.waitForScreen("alice's list from the server") { screen in
                screen.contains { $0.contains("alice's pick") } && screen.contains { $0.hasPrefix("1 movie on the watchlist") }
            }
            try await terminal.send("w")
            // The store's path follows on the status line: wait for it too, not only for the words before.
            let refused = try await terminal.waitForScreen("the refusal, with the store's path") { screen in
                screen.contains { $0.hasPrefix("the watchlist was not changed: this machine's store cannot keep a change: the movie store /tmp") }
            }
            #expect(!refused.contains { $0.contains("[removal pending]") })
            #expect(refused.contains { $0.hasPrefix(warning) }, "the warning stays")
            try await terminal.send("q")
            try await browse.expectRestored(terminal, status: 0)
            #expect(storage.watchlist(owner: storage.owner(ofAccount: "alice")).map(\.movieID) == [6], "nothing was sent")
        }
    }
}
