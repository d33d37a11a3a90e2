import Foundation
import Hummingbird
import MarqueeTestSupport
import MovieServer
import NetworkTestSupport
import ServerTestSupport
import Testing

/// What a person meets in their first hour with a server of their own: a new database with no
/// movies, the bundled ones loaded with one command, a generated catalogue that would have
/// replaced them, and a sign-in that cannot be kept.
@Suite("A person's first hour")
struct FirstHourTests {
    let marquee = MarqueeProcess()

    @Test("a new server says how to load movies; its clients say the catalogue is empty; --bundled fills it; a generated catalogue numbered over it is refused, then added after it")
    func emptyServerToMovies() async throws {
        let database = TestFolders.temporary.appendingPathComponent("first-hour-\(UUID().uuidString).sqlite").path
        let (server, port) = try await marquee.serve(["--port", "0", "--database", database])
        try await finally(try await {
            #expect(server.lastOutput.contains("'marquee catalog import --bundled --database URL'"), "\(server.lastOutput)")
            let env = "http://127.0.0.1:\(port)/api/"

            let empty = try await marquee.run(["top-grossing", "--env", env])
            #expect(empty.status == 0, "\(empty.standardError)")
            #expect(empty.standardOutput.hasPrefix("Top grossing movies of 2016: no movies."), "\(empty.standardOutput)")
            #expect(empty.errorLines.contains { $0.hasPrefix("marquee: note: this server's catalogue is empty: whoever runs it loads movies with 'marquee catalog import --bundled") }, "\(empty.standardError)")
            let emptySearch = try await marquee.run(["search", "dory", "--env", env])
            #expect(emptySearch.errorLines.contains { $0.contains("this server's catalogue is empty") }, "\(emptySearch.standardError)")

            let bundled = try await marquee.run(["catalog", "import", "--bundled", "--database", database])
            #expect(bundled.status == 0, "\(bundled.standardError)")
            #expect(bundled.standardOutput.contains("Imported 10 movies from the bundled catalog"), "\(bundled.standardOutput)")

            // A running server asks the database for the catalogue's version at most once a second.
            var filled = try await marquee.run(["top-grossing", "--env", env])
            #expect(try await eventually {
                filled = try await marquee.run(["top-grossing", "--env", env])
                return filled.standardOutput.contains("Finding Dory (2016)")
            }, "\(filled.standardOutput)")
            #expect(!filled.standardError.contains("catalogue is empty"), "\(filled.standardError)")
            let oldYear = try await marquee.run(["top-grossing", "--year", "1950", "--env", env])
            #expect(oldYear.standardOutput.contains("no movies."))
            #expect(!oldYear.standardError.contains("catalogue is empty"), "a year without movies is not an empty catalogue: \(oldYear.standardError)")

            let generated = TestFolders.temporary.appendingPathComponent("generated-\(UUID().uuidString).json").path
            #expect(try await marquee.run(["generate-catalog", "--movies", "5", "--output", generated]).status == 0)
            let refused = try await marquee.run(["catalog", "import", generated, "--database", database])
            #expect(refused.status == 1)
            #expect(refused.errorLines.count == 1, "\(refused.standardError)")
            #expect(refused.standardError.contains("which the database holds as 'Finding Dory' (2016-06-17); nothing was imported; give --replace"), "\(refused.standardError)")
            #expect(try await marquee.run(["movie", "1", "--env", env]).standardOutput.contains("Finding Dory"))

            let numbered = try await marquee.run(["generate-catalog", "--movies", "5", "--first-id", "11", "--output", generated, "--force"])
            #expect(numbered.standardOutput.contains("ids 11–15"), "\(numbered.standardOutput)")
            let added = try await marquee.run(["catalog", "import", generated, "--database", database])
            #expect(added.status == 0, "\(added.standardError)")
            #expect(added.standardOutput.contains("5 added, 0 changed, 0 unchanged"), "\(added.standardOutput)")
        }()) { _ = await server.signal(SIGTERM) }
    }

    @Test("catalog import names what to give, and a missing or broken file in the system's words, not Foundation's")
    func importFileProblems() async throws {
        let database = TestFolders.temporary.appendingPathComponent("first-hour-\(UUID().uuidString).sqlite").path
        let neither = try await marquee.run(["catalog", "import", "--database", database])
        #expect(neither.status == 64)
        #expect(neither.standardError.contains("give a catalog file to import, or --bundled"), "\(neither.standardError)")

        let missing = try await marquee.run(["catalog", "import", "/nonexistent/movies.json", "--database", database])
        #expect(missing.status == 1)
        #expect(missing.standardError.contains("no such file or directory"), "\(missing.standardError)")
        #expect(!missing.standardError.contains("doesn’t exist") && !missing.standardError.contains("doesn't exist"), "\(missing.standardError)")

        let broken = TestFolders.temporary.appendingPathComponent("broken-\(UUID().uuidString).json")
        try Data("[{\"name\": ".utf8).write(to: broken)
        let unreadable = try await marquee.run(["catalog", "import", broken.path, "--database", database])
        #expect(unreadable.status == 1)
        #expect(unreadable.standardError.contains("the file is not valid JSON"), "\(unreadable.standardError)")
        #expect(!unreadable.standardError.contains("The given data"), "\(unreadable.standardError)")
    }

    @Test("a sign-in that could not be kept fails before a code is asked for, saying what to fix")
    func unwritableConfigFolder() async throws {
        let notAFolder = TestFolders.temporary.appendingPathComponent("config-file-\(UUID().uuidString)")
        try Data("a file where the config folder should be".utf8).write(to: notAFolder)
        let (server, port) = try await marquee.serve(["--port", "0"])
        try await finally(try await {
            let login = try await marquee.run(["login", "--env", "http://127.0.0.1:\(port)/api/"], environment: ["XDG_CONFIG_HOME": notAFolder.path])
            #expect(login.status == 1)
            #expect(!login.standardOutput.contains("enter the code"), "\(login.standardOutput)")
            #expect(login.errorLines.count == 1, "\(login.standardError)")
            #expect(login.standardError.contains("a sign-in could not be kept"), "\(login.standardError)")
            #expect(login.standardError.contains("set XDG_CONFIG_HOME to a folder that can"), "\(login.standardError)")
            #expect(login.standardError.contains("(no code was asked for)"), "\(login.standardError)")
        }()) { _ = await server.signal(SIGTERM) }
    }

    @Test("help offers only what a command takes: no --policy or --max-age for the watchlist's commands (refused in words when given), no relevance for movies")
    func helpPromisesWhatCommandsTake() async throws {
        for command in [["watch", "add"], ["watch", "remove"], ["watchlist"], ["sync"]] {
            let help = try await marquee.run(command + ["--help"])
            #expect(!help.standardOutput.contains("--policy") && !help.standardOutput.contains("--max-age"), "\(command): \(help.standardOutput)")
        }
        let refused = try await marquee.run(["sync", "--policy", "cacheOnly", "--env", "stub:success"])
        #expect(refused.status == 64)
        #expect(refused.errorLines.first?.hasPrefix("marquee: 'sync' takes no --policy cacheOnly: it always sends") == true, "\(refused.standardError)")
        let movies = try await marquee.run(["movies", "--help"])
        #expect(movies.standardOutput.contains("--sort <sort>           The order: grossing, rating, released, title"), "\(movies.standardOutput)")
        #expect(try await marquee.run(["movies", "--sort", "relevance"]).status == 64)
        let search = try await marquee.run(["search", "--help"])
        #expect(search.standardOutput.contains("relevance, grossing"), "\(search.standardOutput)")
        let serve = try await marquee.run(["serve", "--help"])
        #expect(!serve.standardOutput.contains("own watchlist"), "\(serve.standardOutput)")
        let serveHelp = serve.standardOutput.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(serveHelp.contains("the access tokens and search cursors given before are then refused"), "what a restart without keys ends: \(serve.standardOutput)")
    }

    @Test("a search of a year names the year in its header")
    func searchHeaderNamesYear() async throws {
        let outcome = try await marquee.run(["search", "jungle", "--year", "2016"])
        #expect(outcome.standardOutput.hasPrefix("Movies of 2016 matching 'jungle'\n"), "\(outcome.standardOutput)")
    }

    @Test("login against a server that is not Marquee's (501 to the device sign-in) says so, and which --env to check")
    func loginAgainstAnotherServer() async throws {
        try await withLoopbackServer({ router in
            router.post("api/auth/device") { _, _ -> Response in Response(status: .notImplemented) }
        }) { server in
            let login = try await marquee.run(["login", "--env", server.baseURL.absoluteString])
            #expect(login.status == 1)
            #expect(login.errorLines == ["marquee: \(server.baseURL.absoluteString) has no accounts to sign in to: it offers no device sign-in (it answered 501 Not Implemented); is --env the Marquee server you meant?"], "\(login.standardError)")
        }
    }

    @Test("Ctrl-C during a sync the server does not answer says what stays pending, and ends 130; the next sync sends it")
    func interruptedSync() async throws {
        let storage = MemoryStorage(catalog: try Catalog.reference())
        try await withMovieServer(auth: LoginFlow.auth(), storage: storage) { server in
            let relay = try await InterceptingRelay.start(to: server.port, intercepting: "POST /api/watchlist/changes")
            try await finally(try await {
                let api = "http://127.0.0.1:\(relay.port)/api/"
                let home = try TemporaryConfigHome()
                #expect(try await LoginFlow.login(home.marquee, api: api, port: server.port, as: "alice").status == 0)
                #expect(try await home.marquee.run(["watch", "add", "7", "--offline", "--env", api]).status == 0)
                relay.answer = .hang
                let sync = try home.marquee.launch(["sync", "--env", api])
                #expect(try await eventually { relay.intercepted == 1 })
                sync.send(SIGINT)
                #expect(await sync.waitForExit(within: .seconds(30)) == 130)
                #expect(sync.lastOutput.contains("marquee: interrupted: of the 1 change pending when sync began, those the server had not acknowledged stay pending on this machine: 'marquee sync' sends them"), "\(sync.lastOutput)")
                relay.answer = nil
                #expect(try await home.marquee.run(["sync", "--env", api]).status == 0)
                #expect(storage.watchlist(owner: storage.owner(ofAccount: "alice")).map(\.movieID) == [7])
            }()) { await relay.stop() }
        }
    }

    @Test("on a damaged store, 'watchlist' shows the server's list with one warning; a change is refused, nothing sent; offline the damage is the error")
    func damagedStoreWatchlist() async throws {
        let storage = MemoryStorage(catalog: try Catalog.reference())
        try await withMovieServer(auth: LoginFlow.auth(), storage: storage) { server in
            let api = server.baseURL.absoluteString
            let home = try TemporaryConfigHome()
            let store = TestFolders.temporary.appendingPathComponent("damaged-\(UUID().uuidString).sqlite").path
            #expect(try await LoginFlow.login(home.marquee, api: api, port: server.port, as: "alice").status == 0)
            #expect(try await home.marquee.run(["watch", "add", "6", "--env", api, "--store", store]).status == 0)
            try damageDatabase(at: URL(fileURLWithPath: store))

            let shown = try await home.marquee.run(["watchlist", "--env", api, "--store", store])
            #expect(shown.status == 0, "\(shown.standardError)")
            #expect(shown.standardOutput.contains("Deadpool (2016)"), "the server's list: \(shown.standardOutput)")
            #expect(shown.errorLines.count == 1 && shown.errorLines.first?.hasPrefix("marquee: warning: the movie store") == true, "\(shown.standardError)")

            let change = try await home.marquee.run(["watch", "add", "7", "--env", api, "--store", store])
            #expect(change.status == 1)
            #expect(change.errorLines.count == 1 && change.standardError.contains("(nothing was changed: this machine's store must keep a change until the server has it)"), "\(change.standardError)")
            #expect(storage.watchlist(owner: storage.owner(ofAccount: "alice")).map(\.movieID) == [6])
            #expect(try await home.marquee.run(["watchlist", "--offline", "--env", api, "--store", store]).status == 1)
        }
    }

    @Test("a list kept on this machine (the stub) has nothing pending: no [pending] mark, no pending count")
    func stubListHasNothingPending() async throws {
        #expect(try await marquee.run(["watch", "add", "6", "--note", "Friday", "--env", "stub:success"]).status == 0)
        let table = try await marquee.run(["watchlist", "--env", "stub:success"])
        #expect(table.standardOutput.contains("Friday"), "\(table.standardOutput)")
        #expect(!table.standardOutput.contains("pending"), "\(table.standardOutput)")
        let json = try await marquee.run(["watchlist", "--json", "--env", "stub:success"])
        let document = try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any]
        #expect(document?["pendingChanges"] as? Int == 0)
        #expect((document?["entries"] as? [[String: Any]])?.first?["pending"] == nil, "\(json.standardOutput)")
    }

    @Test("showing a list nobody is signed in to says how to sign in, not that nothing was changed; a change says both; a corrupt credentials file is one sentence")
    func signedOutWordsAndCorruptCredentials() async throws {
        let (server, port) = try await marquee.serve(["--port", "0"])
        try await finally(try await {
            let api = "http://127.0.0.1:\(port)/api/"
            let shown = try await marquee.run(["watchlist", "--env", api])
            #expect(shown.status == 1)
            #expect(shown.errorLines == ["marquee: nobody is signed in to \(api), whose watchlist belongs to a person: run 'marquee login --env \(api)'"], "\(shown.standardError)")
            let change = try await marquee.run(["watch", "add", "6", "--env", api])
            #expect(change.standardError.hasSuffix("(nothing was changed)\n"), "\(change.standardError)")

            let credentials = URL(fileURLWithPath: try #require(marquee.environment["XDG_CONFIG_HOME"])).appendingPathComponent("marquee/credentials.json")
            try FileManager.default.createDirectory(at: credentials.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data("{ not json".utf8).write(to: credentials)
            let corrupt = try await marquee.run(["watchlist", "--env", api])
            #expect(corrupt.status == 1)
            #expect(corrupt.errorLines == [
                "marquee: cannot tell who is signed in to \(api): the credentials file \(credentials.path) is not valid (it is not the expected JSON); it was left as it is: move it away to start over",
            ], "\(corrupt.standardError)")
        }()) { _ = await server.signal(SIGTERM) }
    }
}
