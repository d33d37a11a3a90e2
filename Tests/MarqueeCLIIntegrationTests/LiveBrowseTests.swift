import Foundation
import MarqueeTestSupport
import MovieServer
import Movies
import ServerTestSupport
import Testing

/// Two devices of one person, each on its own `marquee serve` instance of one PostgreSQL
/// database (one key file, as `deploy/` runs them): what the laptop does appears on the phone's
/// open `browse` (tmux) without a key pressed, through PostgreSQL's NOTIFY between the instances.
@Suite("Browse follows the live feed", .postgresCluster, .serialized, .timeLimit(.minutes(4)))
struct LiveBrowseTests {
    let laptop = MarqueeProcess()
    let phone: MarqueeProcess = {
        var process = MarqueeProcess()
        process.environment["NO_COLOR"] = "1"
        return process
    }()

    @Test("A's watchlist change through instance A appears in B's open Watchlist segment on instance B; an import refreshes B's list on screen; the status line says live")
    func changeOnAShowsOnB() async throws {
        let (database, keys, catalog) = try await preparedDatabase("live-browse")

        let (instanceA, portA) = try await serve(database, keys: keys)
        let (instanceB, portB) = try await serve(database, keys: keys)
        let browse = BrowseTerminalTests()
        var opened: TmuxTerminal?
        try await finally(try await {
            let apiA = "http://127.0.0.1:\(portA)/api/", apiB = "http://127.0.0.1:\(portB)/api/"
            #expect(try await LoginFlow.login(laptop, api: apiA, port: portA, as: "alice").status == 0)
            #expect(try await LoginFlow.login(phone, api: apiB, port: portB, as: "alice", signUp: false).status == 0)

            let terminal = try await TmuxTerminal.start(
                command: try browse.browseScript(["--env", apiB, "--store", browse.store.path]), environment: phone.environment, width: 120, height: 30
            )
            opened = terminal
            try await terminal.waitForScreen("the list from the network, live") { screen in
                screen.contains { $0.hasPrefix("from the network, ") && $0.hasSuffix(" live") }
            }
            try await terminal.send("Left")
            _ = try await terminal.waitForText("0 movies on the watchlist")

            let added = try await laptop.run(["watch", "add", "6", "--note", "from the laptop", "--env", apiA])
            #expect(added.status == 0, "\(added.standardError)")
            // The row and the status line that counts it are drawn in one frame, but tmux may be read
            // between the two.
            let shown = try await terminal.waitForScreen(timeLimit: .seconds(30), "the laptop's movie on the phone, counted, live") { screen in
                screen.contains { $0.contains("from the laptop") } && screen.contains { $0.hasPrefix("1 movie on the watchlist") && $0.hasSuffix(" live") }
            }
            let title = try #require(try Catalog.reference().movies.first { $0.id == 6 }?.name)
            #expect(shown.contains { $0.contains(title) }, "the title comes from the store: \(shown)")

            try await terminal.send("Right")
            _ = try await terminal.waitForText("1  Finding Dory (2016)")
            var movies = try Catalog.reference().movies
            let dory = try #require(movies.firstIndex { $0.name == "Finding Dory" })
            movies[dory].name = "Finding Dory, Restored"
            try JSONEncoder().encode(movies).write(to: catalog)
            let reimported = try await laptop.run(["catalog", "import", catalog.path, "--database", database])
            #expect(reimported.status == 0, "\(reimported.standardError)")
            _ = try await terminal.waitForText("1  Finding Dory, Restored (2016)", timeLimit: .seconds(30))

            try await terminal.send("q")
            try await browse.expectRestored(terminal, status: 0)
        }()) {
            opened?.kill()
            _ = await instanceA.signal(SIGTERM)
            _ = await instanceB.signal(SIGTERM)
        }
    }

    @Test("A's rating, viewing and list made through instance A appear in B's open Ratings, Diary and Lists segments on instance B, with titles, no key pressed")
    func shelfOnAShowsOnB() async throws {
        let (database, keys, _) = try await preparedDatabase("live-shelf")

        let (instanceA, portA) = try await serve(database, keys: keys)
        let (instanceB, portB) = try await serve(database, keys: keys)
        let browse = BrowseTerminalTests()
        var opened: TmuxTerminal?
        try await finally(try await {
            let apiA = "http://127.0.0.1:\(portA)/api/", apiB = "http://127.0.0.1:\(portB)/api/"
            #expect(try await LoginFlow.login(laptop, api: apiA, port: portA, as: "alice").status == 0)
            #expect(try await LoginFlow.login(phone, api: apiB, port: portB, as: "alice", signUp: false).status == 0)
            #expect(try await laptop.run(["rate", "6", "7", "--env", apiA]).status == 0)

            let terminal = try await TmuxTerminal.start(
                command: try browse.browseScript(["--env", apiB, "--store", browse.store.path]), environment: phone.environment, width: 120, height: 30
            )
            opened = terminal
            try await terminal.waitForScreen("the list from the network, live") { screen in
                screen.contains { $0.hasPrefix("from the network, ") && $0.hasSuffix(" live") }
            }
            let movies = try Catalog.reference().movies
            let title6 = try #require(movies.first { $0.id == 6 }), title2 = try #require(movies.first { $0.id == 2 })
            try await terminal.send("3")
            _ = try await terminal.waitForText("7/10 (★★★½)    \(title6.name) (\(title6.year))", timeLimit: .seconds(30))

            #expect(try await laptop.run(["rate", "2", "9", "--env", apiA]).status == 0)
            try await terminal.waitForScreen(timeLimit: .seconds(30), "the laptop's second rating, counted") { screen in
                screen.contains { $0.contains("9/10 (★★★★½)   \(title2.name) (\(title2.year))") } && screen.contains { $0.hasPrefix("2 movies rated") }
            }

            try await terminal.send("4")
            _ = try await terminal.waitForText("Nothing logged yet")
            let watched = try await laptop.run(["watched", "6", "--on", "2026-01-02", "--note", "at the laptop", "--env", apiA])
            #expect(watched.status == 0, "\(watched.standardError)")
            _ = try await terminal.waitForText("2026-01-02  \(title6.name) (\(title6.year))  at the laptop", timeLimit: .seconds(30))

            try await terminal.send("5")
            _ = try await terminal.waitForText("No lists yet")
            #expect(try await laptop.run(["list", "create", "Noir", "--env", apiA]).status == 0)
            #expect(try await laptop.run(["list", "add", "Noir", "2", "--env", apiA]).status == 0)
            try await terminal.waitForScreen(timeLimit: .seconds(30), "the laptop's list and its movie") { screen in
                screen.contains { $0.contains("▸  Noir · 1 movie") } && screen.contains { $0.contains("1.  \(title2.name) (\(title2.year))") }
            }

            try await terminal.send("q")
            try await browse.expectRestored(terminal, status: 0)
        }()) {
            opened?.kill()
            _ = await instanceA.signal(SIGTERM)
            _ = await instanceB.signal(SIGTERM)
        }
    }

    /// A PostgreSQL database holding the bundled catalogue (imported from `catalog`, which a test
    /// may import again changed), and the signing-key file its instances share.
    private func preparedDatabase(_ name: String) async throws -> (database: String, keys: URL, catalog: URL) {
        let database = try await PostgresCluster.required().makeDatabase()
        let folder = TestFolders.temporary.appendingPathComponent("\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let keys = folder.appendingPathComponent("signing-keys")
        try "k1 \(Data((0..<32).map { _ in UInt8.random(in: 0...255) }).base64EncodedString())\n".write(to: keys, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: keys.path)
        let catalog = folder.appendingPathComponent("catalog.json")
        try JSONEncoder().encode(try Catalog.reference().movies).write(to: catalog)
        let imported = try await laptop.run(["catalog", "import", catalog.path, "--database", database])
        #expect(imported.status == 0, "\(imported.standardError)")
        return (database, keys, catalog)
    }

    /// Starts `marquee serve --database` with the shared key file, and returns it with its port.
    private func serve(_ database: String, keys: URL) async throws -> (ChildProcess, Int) {
        try await laptop.serve(["--port", "0", "--database", database, "--signing-keys", keys.path])
    }
}
