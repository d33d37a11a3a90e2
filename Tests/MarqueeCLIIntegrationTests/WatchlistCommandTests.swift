import Foundation
import MarqueeTestSupport
import MovieServer
import MovieStore
import Movies
import NetworkTestSupport
import ServerTestSupport
import Testing

/// The watchlist through the app: changes written offline, delivered once whatever fails in
/// between, settled between machines, and kept here when the API cannot hold them.
@Suite("Watchlist through the app")
struct WatchlistCommandTests {
    let marquee = MarqueeProcess()
    /// The person every server test signs in as, and their list on the server.
    static let person = "alice"

    /// The store's key of the person's watchlist of `api`.
    static func scope(_ api: String) -> String { WatchlistScope.key(api: api, account: person) }

    /// Signs `marquee` in to `api` as ``person`` (signing up on the first call of a server).
    func signIn(_ api: String, port: Int, signUp: Bool = true) async throws {
        let outcome = try await LoginFlow.login(marquee, api: api, port: port, as: Self.person, signUp: signUp)
        try #require(outcome.status == 0, "signing in: \(outcome.outcome ?? "")")
    }

    @Test("the server applies a batch and the answer is lost: the retry under the same key changes nothing more, in this run or the next")
    func answerLost() async throws {
        let storage = MemoryStorage(catalog: try Catalog.reference())
        try await withMovieServer(auth: LoginFlow.auth(), storage: storage) { server in
            let relay = try await CuttingRelay.start(to: server.port, marker: "POST /api/watchlist/changes", cuts: 1)
            let folder = try Self.folder()
            let api = "http://127.0.0.1:\(relay.port)/api/"
            let store = folder.appendingPathComponent("movies.sqlite").path
            try await signIn(api, port: server.port)
            for change in [["add", "1"], ["add", "2", "--note", "soon"], ["remove", "1"]] {
                let made = try await marquee.run(["watch"] + change + ["--offline", "--env", api, "--store", store])
                #expect(made.status == 0, "\(made.standardError)")
                #expect(made.standardOutput.contains("pending"), "\(made.standardOutput)")
            }
            let synced = try await marquee.run(["sync", "--env", api, "--store", store])
            #expect(synced.status == 0, "\(synced.standardError)")
            #expect(relay.answersCut == 1)
            #expect(relay.markedRequests == 2, "the client sent the batch again after the lost answer")
            #expect(synced.standardOutput.contains("Synced: sent 3 changes"), "\(synced.standardOutput)")
            let journal = storage.watchlistJournal(owner: storage.owner(ofAccount: Self.person))
            #expect(journal.count == 3, "each change applied once: \(journal)")
            #expect(Set(journal.map(\.changeID)).count == 3)
            #expect(storage.watchlist(owner: storage.owner(ofAccount: Self.person)).map(\.movieID) == [2])
            #expect(try await Self.view(marquee, api: api, store: store)["pendingChanges"] as? Int == 0)
            await relay.stop()

            let stubborn = try await CuttingRelay.start(to: server.port, marker: "POST /api/watchlist/changes", cuts: 100)
            let stubbornAPI = "http://127.0.0.1:\(stubborn.port)/api/"
            let stubbornStore = folder.appendingPathComponent("other.sqlite").path
            try await signIn(stubbornAPI, port: server.port, signUp: false)
            #expect(try await marquee.run(["watch", "add", "3", "--offline", "--env", stubbornAPI, "--store", stubbornStore]).status == 0)
            let failed = try await marquee.run(["sync", "--env", stubbornAPI, "--store", stubbornStore, "--timeout", "5"])
            #expect(failed.status == 1)
            #expect(failed.errorLines.last?.hasSuffix("1 change still pending on this machine") == true, "\(failed.standardError)")
            #expect(stubborn.answersCut >= 1)
            #expect(storage.watchlist(owner: storage.owner(ofAccount: Self.person)).map(\.movieID).sorted() == [2, 3], "the server applied it though no answer came back")
            stubborn.cut(next: 0)
            let later = try await marquee.run(["sync", "--env", stubbornAPI, "--store", stubbornStore])
            #expect(later.status == 0, "\(later.standardError)")
            #expect(later.standardOutput.hasPrefix("Synced: sent 1 change;"), "the server answers the repeat with its first answer: \(later.standardOutput)")
            #expect(storage.watchlistJournal(owner: storage.owner(ofAccount: Self.person)).filter { $0.movieID == 3 }.count == 1)
            await stubborn.stop()
        }
    }

    @Test("50 SIGKILLs at random moments of a 500-change sync, then one clean sync: the server's list is the intended one, each change applied once")
    func killedSyncs() async throws {
        let storage = MemoryStorage(catalog: try Catalog.reference())
        try await withMovieServer(auth: LoginFlow.auth(), storage: storage) { server in
            let folder = try Self.folder()
            let api = server.baseURL.absoluteString
            let storeURL = folder.appendingPathComponent("movies.sqlite")
            try await signIn(api, port: server.port)
            var generator = SeededGenerator(seed: 27)
            var intended: [Int: String] = [:]
            do {
                let store = try MovieStore(url: storeURL)
                for index in 0..<500 {
                    let movie = Int.random(in: 1...10, using: &generator)
                    if Bool.random(using: &generator) {
                        _ = try await store.recordWatchlistChange(movieID: movie, action: .add, note: "n\(index)", api: Self.scope(api))
                        intended[movie] = "n\(index)"
                    } else {
                        _ = try await store.recordWatchlistChange(movieID: movie, action: .remove, api: Self.scope(api))
                        intended[movie] = nil
                    }
                }
            }
            var killedAfterProgress = 0
            for iteration in 0..<50 {
                let before = storage.watchlistJournal(owner: storage.owner(ofAccount: Self.person)).count
                let process = try marquee.launch(["sync", "--batch-size", "2", "--env", api, "--store", storeURL.path])
                if iteration.isMultiple(of: 2) {
                    // At any moment from the start: before the first request, or in the middle.
                    try await Task.sleep(for: .milliseconds(Int.random(in: 0...150, using: &generator)))
                } else {
                    // Once the server has applied something of this run, a little later: in the middle of the batches.
                    let deadline = ContinuousClock.now + .seconds(10)
                    while storage.watchlistJournal(owner: storage.owner(ofAccount: Self.person)).count == before, process.isRunning, ContinuousClock.now < deadline {
                        try await Task.sleep(for: .milliseconds(1))
                    }
                    try await Task.sleep(for: .milliseconds(Int.random(in: 0...20, using: &generator)))
                }
                _ = await process.signal(SIGKILL)
                let after = storage.watchlistJournal(owner: storage.owner(ofAccount: Self.person)).count
                if after > before && after < 500 { killedAfterProgress += 1 }
            }
            #expect(killedAfterProgress > 0, "some kills landed in the middle of a sync")
            let clean = try await marquee.run(["sync", "--env", api, "--store", storeURL.path])
            #expect(clean.status == 0, "\(clean.standardError)")
            let journal = storage.watchlistJournal(owner: storage.owner(ofAccount: Self.person))
            #expect(journal.count == 500, "every change reached the server")
            #expect(Set(journal.map(\.changeID)).count == 500, "none twice")
            let listed = storage.watchlist(owner: storage.owner(ofAccount: Self.person))
            #expect(Dictionary(uniqueKeysWithValues: listed.map { ($0.movieID, $0.note) }) == intended)
            let view = try await Self.view(marquee, api: api, store: storeURL.path)
            #expect(view["pendingChanges"] as? Int == 0)
            #expect(Set(((view["entries"] as? [[String: Any]]) ?? []).compactMap { $0["movieId"] as? Int }) == Set(intended.keys))
        }
    }

    @Test("two machines change the same movies offline; after both sync, in either order, both show the list the rule gives", arguments: [false, true])
    func twoMachines(reversed: Bool) async throws {
        let storage = MemoryStorage(catalog: try Catalog.reference())
        try await withMovieServer(auth: LoginFlow.auth(), storage: storage) { server in
            let folder = try Self.folder()
            let api = server.baseURL.absoluteString
            let laptop = folder.appendingPathComponent("laptop.sqlite"), phone = folder.appendingPathComponent("phone.sqlite")
            try await signIn(api, port: server.port)
            let start = Date(timeIntervalSince1970: 1_795_000_000)
            do {
                let a = try MovieStore(url: laptop), b = try MovieStore(url: phone)
                _ = try await a.recordWatchlistChange(movieID: 1, action: .add, note: "laptop", api: Self.scope(api), now: start)
                _ = try await b.recordWatchlistChange(movieID: 2, action: .add, note: "phone", api: Self.scope(api), now: start + 60)
                _ = try await a.recordWatchlistChange(movieID: 2, action: .remove, api: Self.scope(api), now: start + 120)
                _ = try await b.recordWatchlistChange(movieID: 1, action: .add, note: "phone wins", api: Self.scope(api), now: start + 180)
                _ = try await b.recordWatchlistChange(movieID: 3, action: .add, api: Self.scope(api), now: start + 240)
                _ = try await a.recordWatchlistChange(movieID: 3, action: .remove, api: Self.scope(api), now: start + 30)
            }
            let order = reversed ? [phone, laptop, phone] : [laptop, phone, laptop]
            for store in order {
                let synced = try await marquee.run(["sync", "--env", api, "--store", store.path])
                #expect(synced.status == 0, "\(synced.standardError)")
            }
            let expected: [[String: String]] = [["3": ""], ["1": "phone wins"]]
            for store in [laptop, phone] {
                let view = try await Self.view(marquee, api: api, store: store.path)
                let entries = ((view["entries"] as? [[String: Any]]) ?? []).map { ["\($0["movieId"] ?? "")": ($0["note"] as? String) ?? "?"] }
                #expect(entries == expected, "\(store.lastPathComponent): the later change per movie, a later removal included")
                let titles = ((view["entries"] as? [[String: Any]]) ?? []).map { $0["title"] as? String }
                #expect(titles.allSatisfy { $0 != nil }, "sync fetched the titles of movies this store never stored: \(titles)")
                #expect(view["pendingChanges"] as? Int == 0)
            }
        }
    }

    @Test("8 processes sync one store at once: they take turns, so the server receives each batch once")
    func eightProcesses() async throws {
        let storage = MemoryStorage(catalog: try Catalog.reference())
        try await withMovieServer(auth: LoginFlow.auth(), storage: storage) { server in
            let counter = try await CuttingRelay.start(to: server.port, marker: "POST /api/watchlist/changes", cuts: 0)
            let folder = try Self.folder()
            let api = "http://127.0.0.1:\(counter.port)/api/"
            let storeURL = folder.appendingPathComponent("movies.sqlite")
            try await signIn(api, port: server.port)
            do {
                let store = try MovieStore(url: storeURL)
                for index in 0..<200 {
                    _ = try await store.recordWatchlistChange(movieID: index % 10 + 1, action: .add, note: "\(index)", api: Self.scope(api))
                }
            }
            let outcomes = try await withThrowingTaskGroup(of: MarqueeProcess.Outcome.self) { group in
                for _ in 0..<8 {
                    group.addTask { try await marquee.run(["sync", "--batch-size", "20", "--env", api, "--store", storeURL.path]) }
                }
                return try await group.reduce(into: [MarqueeProcess.Outcome]()) { $0.append($1) }
            }
            for outcome in outcomes { #expect(outcome.status == 0, "\(outcome.standardError)") }
            #expect(counter.markedRequests == 10, "200 changes in batches of 20, each sent once")
            let journal = storage.watchlistJournal(owner: storage.owner(ofAccount: Self.person))
            #expect(journal.count == 200)
            #expect(Set(journal.map(\.changeID)).count == 200)
            #expect(storage.watchlist(owner: storage.owner(ofAccount: Self.person)).count == 10)
            await counter.stop()
        }
    }

    @Test("offline: watch add with no server succeeds, watchlist shows it pending, and the next networked command delivers it")
    func offlineThenDelivered() async throws {
        let folder = try Self.folder()
        let port = try PostgresCluster.freeLoopbackPort()
        let api = "http://127.0.0.1:\(port)/api/"
        let store = folder.appendingPathComponent("movies.sqlite").path
        let storage = MemoryStorage(catalog: try Catalog.reference())
        let auth = LoginFlow.auth()
        func serve() async throws -> RunningServer {
            var configuration = MovieServer.Configuration(host: "127.0.0.1", port: port, storage: storage, auth: auth, logger: quietLogger)
            configuration.answersOnEventLoop = true
            return try await MovieServer(configuration: configuration).start()
        }
        let first = try await serve()
        try await finally(try await signIn(api, port: port)) { try? await first.stop() }

        let added = try await marquee.run(["watch", "add", "6", "--note", "on the train", "--env", api, "--store", store, "--timeout", "2"])
        #expect(added.status == 0, "\(added.standardError)")
        #expect(added.standardOutput.hasPrefix("Noted movie 6 on the watchlist; not sent yet (cannot connect"), "\(added.standardOutput)")
        let shown = try await marquee.run(["watchlist", "--env", api, "--store", store])
        #expect(shown.status == 0)
        #expect(shown.standardOutput.contains("1 change pending"), "\(shown.standardOutput)")
        #expect(shown.standardOutput.contains("on the train  [pending]"), "\(shown.standardOutput)")

        let running = try await serve()
        try await finally(try await {
            let listed = try await marquee.run(["top-rated", "--env", api, "--store", store, "--verbose"])
            #expect(listed.status == 0, "\(listed.standardError)")
            #expect(listed.standardError.contains("watchlist: sent 1 change first"), "said in --verbose only: \(listed.standardError)")
            let quiet = try await marquee.run(["top-rated", "--env", api, "--store", store])
            #expect(!quiet.standardError.contains("watchlist"))
            #expect(storage.watchlist(owner: storage.owner(ofAccount: Self.person)).map(\.note) == ["on the train"])
            let view = try await Self.view(marquee, api: api, store: store)
            #expect(view["pendingChanges"] as? Int == 0)
            #expect((view["entries"] as? [[String: Any]])?.first?["title"] as? String == "Deadpool")
        }()) { try? await running.stop() }
    }

    @Test("against the static site and the embedded API the watchlist is kept on this machine, and the commands say so")
    func keptHere() async throws {
        let folder = try Self.folder()
        let store = folder.appendingPathComponent("movies.sqlite").path
        let site = ReferenceSiteServer()
        try await site.run { url in
            let api = url.absoluteString
            let added = try await marquee.run(["watch", "add", "1", "--env", api, "--store", store])
            #expect(added.status == 0, "\(added.standardError)")
            #expect(added.standardOutput == "Added movie 1 to the watchlist; kept on this machine: the server keeps no watchlist.\n")
            let synced = try await marquee.run(["sync", "--env", api, "--store", store])
            #expect(synced.status == 0, "\(synced.standardError)")
            #expect(synced.standardOutput.contains("the server keeps no watchlist"), "\(synced.standardOutput)")
            let shown = try await marquee.run(["watchlist", "--env", api, "--store", store])
            #expect(shown.standardOutput.hasPrefix("Watchlist (kept on this machine: the server keeps no watchlist)"), "\(shown.standardOutput)")
            #expect(!shown.standardOutput.contains("pending"), "kept here, nothing of it waits to be sent: \(shown.standardOutput)")
        }
        let embedded = try await marquee.run(["watch", "add", "2", "--store", store])
        #expect(embedded.standardOutput == "Added movie 2 to the watchlist; kept on this machine: the embedded API keeps no watchlist between runs.\n")
        let sync = try await marquee.run(["sync", "--store", store])
        #expect(sync.status == 0)
        #expect(sync.standardOutput == "Nothing to sync: the embedded API keeps no watchlist between runs; the watchlist is kept on this machine.\n")
        let bad = try await marquee.run(["watch", "add", "-3", "--store", store])
        #expect(bad.status == 64)
        #expect(bad.errorLines.count == 1, "\(bad.standardError)")
    }

    @Test("serve --clients FILE admits its clients, and no longer the development pair; a client's own token has no watchlist (403); a file others may read, or a bad line, is one line and no server")
    func clientsFile() async throws {
        let folder = try Self.folder()
        let file = folder.appendingPathComponent("clients")
        try "# phones\nphone phone-secret\ntablet tablet-secret # the kitchen one\n".write(to: file, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file.path)
        let open = try await marquee.run(["serve", "--port", "0", "--clients", file.path])
        #expect(open.status != 0)
        #expect(open.errorLines == ["marquee: the clients file \(file.path): other users may read it (mode 644); run 'chmod 600 \(file.path)'"])
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)

        let server = try marquee.launch(["serve", "--port", "0", "--clients", file.path])
        let line = try #require(await server.nextErrorLine(containing: "Marquee movie API listening on"), "\(server.lastOutput)")
        #expect(server.lastOutput.contains("the development client marquee-dev is not admitted: the clients come from \(file.path)"), "said at start: \(server.lastOutput)")
        let port = try #require(URL(string: String(line.split(separator: " ").last ?? ""))?.port)
        try await finally(try await {
            let form = [("Content-Type", "application/x-www-form-urlencoded")]
            let development = try await LoopbackHTTP.send(port: port, "/api/auth/token", method: "POST", headers: form, body: "grant_type=client_credentials&client_id=marquee-dev&client_secret=marquee-dev-secret")
            #expect(development.status == 401)
            var tokens: [String: String] = [:]
            for (id, secret) in [("phone", "phone-secret"), ("tablet", "tablet-secret")] {
                let granted = try await LoopbackHTTP.send(port: port, "/api/auth/token", method: "POST", headers: form, body: "grant_type=client_credentials&client_id=\(id)&client_secret=\(secret)")
                let token = try #require(granted.string("access_token"), "\(id)")
                tokens[id] = token
            }
            let wrong = try await LoopbackHTTP.send(port: port, "/api/auth/token", method: "POST", headers: form, body: "grant_type=client_credentials&client_id=phone&client_secret=tablet-secret")
            #expect(wrong.status == 401)
            let put = try await LoopbackHTTP.send(port: port, "/api/watchlist/6", method: "PUT", headers: [("Authorization", "Bearer \(tokens["phone"]!)"), ("Idempotency-Key", "p1")])
            #expect(put.status == 403, "a watchlist belongs to a person")
            #expect(put.string("error") == "insufficient_scope")
            let movie = try await LoopbackHTTP.send(port: port, "/api/movies/6", headers: [("Authorization", "Bearer \(tokens["tablet"]!)")])
            #expect(movie.status == 200, "the client's token reads the catalogue")
        }()) { _ = await server.signal(SIGTERM) }

        for (content, reason) in [
            ("phone\n", "line 1 must be 'CLIENT-ID SECRET', two words"),
            ("a b\na c\n", "line 2: the client id 'a' is listed twice"),
            ("marquee-dev marquee-dev-secret\n", "line 1: the development pair's secret is public; give 'marquee-dev' a secret of its own"),
            ("# nothing\n", "it names no client"),
        ] {
            try content.write(to: file, atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
            let refused = try await marquee.run(["serve", "--port", "0", "--clients", file.path])
            #expect(refused.status != 0)
            #expect(refused.errorLines == ["marquee: the clients file \(file.path): \(reason)"], "\(refused.standardError)")
        }
        try "phone x\n".write(to: file, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
        let twice = try await marquee.run(["serve", "--port", "0", "--client-id", "phone", "--client-secret", "y", "--clients", file.path])
        #expect(twice.status != 0)
        #expect(twice.errorLines == ["marquee: the clients file \(file.path): it names 'phone', the client already given by --client-id or MARQUEE_CLIENT_ID"], "\(twice.standardError)")
    }

    static func folder() throws -> URL {
        let folder = TestFolders.temporary.appendingPathComponent("marquee-watchlist-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    static func view(_ marquee: MarqueeProcess, api: String, store: String) async throws -> [String: Any] {
        let shown = try await marquee.run(["watchlist", "--json", "--env", api, "--store", store])
        #expect(shown.status == 0, "\(shown.standardError)")
        return (try JSONSerialization.jsonObject(with: Data(shown.standardOutput.utf8)) as? [String: Any]) ?? [:]
    }
}
