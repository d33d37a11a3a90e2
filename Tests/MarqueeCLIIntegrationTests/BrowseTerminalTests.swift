import Foundation
import MarqueeTestSupport
import MovieBrowser
import MovieContract
import MovieServer
import Movies
import NetworkTestSupport
import ReferenceAPI
import ServerTestSupport
import Testing
import TextFormatting

/// `marquee browse` in a real terminal (tmux), against a real server on loopback.
@Suite("Browse in a terminal", .serialized, .timeLimit(.minutes(3)))
struct BrowseTerminalTests {
    let folder = TestFolders.temporary.appendingPathComponent("browse-\(UUID().uuidString)")
    var store: URL { folder.appendingPathComponent("movies.sqlite") }
    var pidFile: URL { folder.appendingPathComponent("browse.pid") }

    /// A script that runs `marquee browse` with `arguments` (for 300 s at most, should the test
    /// die), writes its pid, and after it exits prints its status and the terminal's line
    /// settings, then "checked." (so a reader never sees half of it), and stays open two
    /// minutes to be read.
    /// With `startSignal`, the script waits until that file exists, so keys sent meanwhile are
    /// typed before `marquee` starts.
    func browseScript(_ arguments: [String], startSignal: URL? = nil) throws -> String {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let script = folder.appendingPathComponent("browse.sh")
        let quoted = arguments.map { "'\($0)'" }.joined(separator: " ")
        let wait = startSignal.map { "while [ ! -e '\($0.path)' ]; do sleep 0.05; done" } ?? ""
        try """
        \(wait)
        sh -c 'echo $$ > "$0"; exec timeout --foreground 300 "$@"' '\(pidFile.path)' '\(BuildProducts.executable(named: "marquee").path)' browse \(quoted)
        status=$?
        settings=$(stty -a | tr ' ;' '\\n\\n' | grep -x -e icanon -e -icanon -e echo -e -echo | tr '\\n' ' ')
        echo "exit=$status"
        echo "tty:$settings"
        echo "checked."
        exec sleep 120
        """.write(to: script, atomically: true, encoding: .utf8)
        return "sh '\(script.path)'"
    }

    func expectRestored(_ terminal: TmuxTerminal, status: Int) async throws {
        let screen = try await terminal.waitForText("checked.")
        #expect(screen.contains("exit=\(status)"))
        #expect(screen.contains { $0.hasPrefix("tty:") && $0.contains("icanon") && !$0.contains("-icanon") && !$0.contains("-echo") }, "raw mode was left on: \(screen)")
        #expect(try await terminal.pane("#{alternate_on}") == "0", "still on the alternate screen")
        #expect(try await terminal.pane("#{cursor_flag}") == "1", "the cursor is still hidden")
    }

    @Test("the stored list then the network's, top rated, a list another process stores, a resize, and q restores the terminal")
    func browsing() async throws {
        let site = ReferenceSiteServer()
        var marquee = MarqueeProcess()
        marquee.environment["NO_COLOR"] = nil
        var opened: TmuxTerminal?
        defer { opened?.kill() }
        try await site.run { url in
            let client = ["--env", url.absoluteString, "--store", store.path]
            let first = try await marquee.run(["top-grossing"] + client)
            #expect(first.status == 0, "\(first.standardError)")

            await site.gate.close()
            let terminal = try await TmuxTerminal.start(command: try browseScript(client), environment: marquee.environment, width: 100, height: 30)
            opened = terminal
            // "refreshing…" ends the status line that says "from the local store": tmux may be read
            // before the rest of the line is written.
            let stored = try await terminal.waitForScreen("the stored list, refreshing") { screen in
                screen.contains { $0.contains("from the local store") } && screen.contains { $0.contains("refreshing…") }
            }
            #expect(stored[2].contains("1  Finding Dory (2016)"))
            let styled = try await terminal.screen(attributes: true).joined()
            #expect(styled.contains("\u{1B}[7m"), "the selected segment and row are in reverse video")

            await site.gate.open()
            try await terminal.waitForScreen("the network's answer") { $0.contains { $0.hasPrefix("from the network, ") } }

            try await terminal.send("Right")
            try await terminal.waitForScreen("the top rated list from the network") {
                $0[2].contains("1  Zootopia (2016)") && $0.contains { $0.contains("from the network") }
            }
            try await terminal.send("Left")
            try await terminal.waitForScreen("the top grossing list again") { $0[2].contains("1  Finding Dory (2016)") }

            let reference = String(decoding: ReferenceBodies.body(at: "movies/topGrossing/2016.json")!, as: UTF8.self)
            site.replace("movies/topGrossing/2016", with: Data(reference.replacingOccurrences(of: "Finding Dory", with: "Finding Dory Again").utf8))
            let second = try await marquee.run(["top-grossing"] + client)
            #expect(second.status == 0, "\(second.standardError)")
            try await terminal.waitForText("1  Finding Dory Again (2016)")

            try await terminal.resize(width: 50, height: 20)
            // The first row is drawn after the header, in the same frame, and tmux may be read between
            // the two: until then the row below the header is what the resize left there.
            let narrow = try await terminal.waitForScreen("a 50-column table, its first row redrawn") {
                $0[1].contains("Movie") && !$0[1].contains("Released") && $0[2].contains("1  Finding Dory Again (2016)")
            }
            #expect(narrow.allSatisfy { DisplayWidth.of($0) <= 50 })
            try await terminal.resize(width: 120, height: 30)
            try await terminal.waitForScreen("a 120-column table") { $0[1].contains("Grossing") }

            try await terminal.send("q")
            try await expectRestored(terminal, status: 0)
        }
    }

    @Test("the login screen: with nobody signed in, the Watchlist segment shows the page and the code; approved on the page, it turns into the person's list")
    func loginScreen() async throws {
        let storage = MemoryStorage(catalog: try Catalog.reference())
        try await withMovieServer(auth: LoginFlow.auth(), storage: storage) { server in
            _ = try await server.server.accounts.create(name: "alice", password: "correct horse")
            let change = WatchlistChangeRecord(id: "a1", movieID: 6, action: .add, note: "alice's pick", changedAt: 1_700_000_000_000, device: "d")
            _ = storage.applyWatchlist(WatchlistWrite(owner: storage.owner(ofAccount: "alice"), key: "a1", request: "PUT", body: Data(), changes: [change], shape: .single), now: Date())
            var marquee = MarqueeProcess()
            marquee.environment["NO_COLOR"] = "1"
            let api = server.baseURL.absoluteString
            let terminal = try await TmuxTerminal.start(command: try browseScript(["--env", api, "--store", store.path]), environment: marquee.environment, width: 120, height: 30)
            defer { terminal.kill() }
            _ = try await terminal.waitForText("from the network")
            try await terminal.send("Left")
            // The code ends the line that says "and enter the code": wait for the whole of it.
            let prompt = try await terminal.waitForScreen("the sign-in code") { screen in
                screen.contains { $0.firstMatch(of: /and enter the code [A-Z]{4}-[A-Z]{4}/) != nil }
            }
            #expect(prompt.contains { $0.contains("Sign in to see your watchlist") })
            #expect(prompt.contains { $0.contains("Open http://127.0.0.1:\(server.port)/device") })
            let codes = prompt.compactMap { line in line.firstMatch(of: /the code ([A-Z]{4}-[A-Z]{4})/).map { String($0.1) } }
            let code = try #require(codes.first)
            #expect(try await PageClient(port: server.port).decide(code, as: "alice", signUp: false).status == 200)
            // The device flow polls every 5 s, 10 after a slow_down: the wait covers several polls.
            let list = try await terminal.waitForScreen(timeLimit: .seconds(60), "alice's list") { $0.contains { $0.contains("alice's pick") } }
            #expect(!list.contains { $0.contains("and enter the code") })
            try await terminal.send("q")
            try await expectRestored(terminal, status: 0)
            let status = try await marquee.run(["auth", "status", "--env", api])
            #expect(status.standardOutput.contains("as alice (the default account)"), "browse stored the sign-in: \(status.standardOutput)")
        }
    }

    @Test("signed out everywhere from another device while browse is open: the Watchlist segment shows its sign-in again")
    func signedOutElsewhere() async throws {
        var feed = FeedSettings()
        feed.heartbeat = .milliseconds(500)
        let storage = MemoryStorage(catalog: try Catalog.reference())
        try await withMovieServer(auth: LoginFlow.auth(), storage: storage, feed: feed) { server in
            let api = server.baseURL.absoluteString
            let here = try TemporaryConfigHome(), elsewhere = try TemporaryConfigHome()
            #expect(try await LoginFlow.login(here.marquee, api: api, port: server.port, as: "alice").status == 0)
            #expect(try await LoginFlow.login(elsewhere.marquee, api: api, port: server.port, as: "alice", signUp: false).status == 0)
            #expect(try await here.marquee.run(["watch", "add", "6", "--note", "alice's pick", "--env", api]).status == 0)
            var environment = here.marquee.environment
            environment["NO_COLOR"] = "1"
            let terminal = try await TmuxTerminal.start(command: try browseScript(["--env", api, "--store", store.path]), environment: environment, width: 120, height: 30)
            defer { terminal.kill() }
            _ = try await terminal.waitForText("from the network")
            try await terminal.send("Left")
            _ = try await terminal.waitForScreen(timeLimit: .seconds(60), "alice's list, live") { screen in
                screen.contains { $0.contains("alice's pick") } && screen.contains { $0.contains("live") && !$0.contains("not live") }
            }
            #expect(try await elsewhere.marquee.run(["logout", "--everywhere", "--env", api]).status == 0)
            let prompt = try await terminal.waitForScreen(timeLimit: .seconds(60), "the sign-in again, with its code") { screen in
                screen.contains { $0.contains("Sign in to see your watchlist") } && screen.contains { $0.contains("and enter the code") }
            }
            #expect(!prompt.contains { $0.contains("alice's pick") }, "the list of a sign-in that ended is not shown")
            try await terminal.send("q")
            try await expectRestored(terminal, status: 0)
        }
    }

    @Test("against marquee serve: offline after the server is killed, the stored list stays with the error; SIGTERM restores the terminal; NO_COLOR")
    func offlineAndTerminated() async throws {
        var marquee = MarqueeProcess()
        marquee.environment["NO_COLOR"] = "1"
        let server = try marquee.launch(["serve", "--port", "0"])
        let line = try #require(await server.nextErrorLine(containing: "Marquee movie API listening on"))
        let address = try await AddressThatGoesAway.start(to: try #require(line.split(separator: " ").last.map(String.init)))
        let api = address.baseURL.absoluteString
        let terminal = try await TmuxTerminal.start(command: try browseScript(["--env", api, "--store", store.path]), environment: marquee.environment, width: 120, height: 30)
        defer { terminal.kill() }
        let screen = try await terminal.waitForScreen("the network's answer") { $0.contains { $0.hasPrefix("from the network, ") } }
        #expect(screen[0].contains("[Top grossing]"))
        #expect(screen[2].contains("1  Finding Dory (2016)"))
        let styled = try await terminal.screen(attributes: true).joined()
        #expect(!styled.contains("\u{1B}[7m"), "NO_COLOR draws no reverse video")

        _ = await server.signal(SIGKILL)
        try await address.goAway()
        try await terminal.send("r")
        // Why it was not refreshed ends the status line: wait for the whole of it.
        let offline = try await terminal.waitForScreen("the stored list, not refreshed: cannot connect") { screen in
            screen.contains { $0.hasPrefix("from the local store, fetched ") && $0.contains(" — not refreshed: cannot connect") }
        }
        #expect(offline[2].contains("1  Finding Dory (2016)"), "the stored list stays on screen")

        try await terminal.send("?")
        try await terminal.waitForText("any key closes the help")
        let pid = try #require(Int32(String(contentsOf: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(kill(pid, SIGTERM) == 0)
        try await expectRestored(terminal, status: 143)
    }

    @Test("the documentation's browse sample (BrowseScreen.md) is the screen: 100×24, NO_COLOR, top rated after →")
    func readmeSample() async throws {
        let (file, expected) = try DocumentationSamples.block(marked: "<!-- sample: browse -->")
        var marquee = MarqueeProcess()
        marquee.environment["NO_COLOR"] = "1"
        let terminal = try await TmuxTerminal.start(command: try browseScript(["--store", store.path]), environment: marquee.environment, width: 100, height: 24)
        defer { terminal.kill() }
        _ = try await terminal.waitForText("from the network")
        try await terminal.send("Right")
        // The status line of the list before stays while the new one loads: wait for its rows too.
        // The key line is drawn last, after the status line, and tmux may be read between the two:
        // it says "w watchlist" until a movie is selected.
        let screen = try await terminal.waitForScreen("top rated from the network, with its key line") { lines in
            lines.first?.contains("[Top rated]") == true && lines.contains { $0.hasPrefix("from the network") }
                && lines.contains { $0.hasPrefix(" ›  1  ") } && !lines.contains { $0.contains("Loading…") }
                && lines.last { !$0.isEmpty }.map { $0.hasPrefix("←/→ switch") && !$0.contains("w watchlist") } == true
        }
        var shown = screen.map { $0.replacingOccurrences(of: #"\s+$"#, with: "", options: .regularExpression) }
        while shown.last == "" { shown.removeLast() }
        #expect(shown == expected, "\(file): the browse sample")
        try await terminal.send("q")
    }

    @Test("/ searches as you type: results, Enter opens one, Esc back to them and to the lists; offline the store is searched and says so")
    func search() async throws {
        let terminal = try await TmuxTerminal.start(command: try browseScript(["--store", store.path]), environment: MarqueeProcess().environment, width: 100, height: 30)
        defer { terminal.kill() }
        _ = try await terminal.waitForText("from the network")
        try await terminal.send("/")
        _ = try await terminal.waitForText("type words of a title or of a cast")
        try await terminal.send("z", "o", "o", "t")
        // The status line is drawn after the results, in the same frame, and tmux may be read between the two.
        _ = try await terminal.waitForScreen("Zootopia found, from the network") { screen in
            screen.contains { $0.contains("Zootopia (2016)") } && screen.contains { $0.hasPrefix(" Search: zoot") }
                && screen.contains { $0.hasPrefix("from the network") }
        }
        try await terminal.send("Enter")
        _ = try await terminal.waitForText(" Id        7  (marquee movie 7)")
        try await terminal.send("Escape")
        _ = try await terminal.waitForScreen("back to the results") { $0.contains { $0.hasPrefix(" Search: zoot") } }
        try await terminal.send("Escape")
        _ = try await terminal.waitForScreen("back to the lists") { $0.first?.contains("Top grossing") == true && !$0.contains { $0.hasPrefix(" Search:") } }
        try await terminal.send("q")
        _ = try await terminal.waitForText("checked.")

        let offline = try await TmuxTerminal.start(command: try browseScript(["--store", store.path, "--offline"]), environment: MarqueeProcess().environment, width: 100, height: 30)
        defer { offline.kill() }
        _ = try await offline.waitForText("from the local store")
        try await offline.send("/", "d", "o", "r", "y")
        // The whole status line, not its beginning: tmux may be read before the rest of it is written.
        _ = try await offline.waitForScreen("Finding Dory found offline, not the server's results") { screen in
            screen.contains { $0.hasPrefix(" Search: dory") } && screen.contains { $0.contains("Finding Dory (2016)") }
                && screen.contains { $0.hasPrefix("searched ") && $0.contains("stored movies offline — not the server's results") }
        }
        try await offline.send("q")
    }

    @Test("a q typed before browse has started is not lost: it quits as soon as the screen is up")
    func typedAhead() async throws {
        let start = folder.appendingPathComponent("start")
        let terminal = try await TmuxTerminal.start(
            command: try browseScript(["--env", "stub:success", "--store", store.path], startSignal: start), environment: MarqueeProcess().environment, width: 100, height: 30
        )
        defer { terminal.kill() }
        try await terminal.send("q")
        _ = try await terminal.waitForScreen("the q echoed while browse has not started") { $0.first == "q" }
        try Data().write(to: start)
        let screen = try await terminal.waitForText("checked.")
        #expect(screen.first == "qexit=0", "the q was echoed before raw mode, then read by browse, which quit: \(screen)")
        #expect(screen.contains { $0.hasPrefix("tty:") && !$0.contains("-icanon") && !$0.contains("-echo") })
    }

    @Test("SIGQUIT ends browse like SIGTERM: the terminal restored, no backtrace drawn, no key waited for")
    func quitSignal() async throws {
        let terminal = try await TmuxTerminal.start(
            command: try browseScript(["--env", "stub:success", "--store", store.path]), environment: MarqueeProcess().environment, width: 120, height: 30
        )
        defer { terminal.kill() }
        try await terminal.waitForText("Finding Dory")
        let pid = try #require(Int32(String(contentsOf: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(kill(pid, SIGQUIT) == 0)
        try await expectRestored(terminal, status: 128 + Int(SIGQUIT))
        let screen = try await terminal.screen().joined(separator: "\n")
        #expect(!screen.contains("Backtrace") && !screen.contains("crashed"), "\(screen)")
    }

    @Test("without a terminal, browse says so in one line and exits non-zero")
    func notATerminal() async throws {
        let outcome = try await MarqueeProcess().run(["browse", "--store", store.path])
        #expect(outcome.status == 1)
        #expect(outcome.errorLines.count == 1)
        #expect(outcome.standardError.hasPrefix("marquee: browse needs a terminal"))
        #expect(outcome.standardOutput.isEmpty)
    }
}
