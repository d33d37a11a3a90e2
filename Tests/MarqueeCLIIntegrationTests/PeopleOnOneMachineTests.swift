import Foundation
import MarqueeTestSupport
import MovieServer
import ServerTestSupport
import Testing

/// Two people on one machine: their lists and outboxes never mix, in one store shared by two
/// config folders, and in one config folder with two accounts.
@Suite("People on one machine")
struct PeopleOnOneMachineTests {
    static let movie = 6

    @Test("two config folders, one store: bob sees nothing of alice's list or her pending note, and bob's sync sends nothing of hers; hers goes with her token")
    func twoConfigFoldersOneStore() async throws {
        let storage = MemoryStorage(catalog: try Catalog.reference())
        try await withMovieServer(auth: LoginFlow.auth(), storage: storage) { server in
            let api = server.baseURL.absoluteString
            let store = TestFolders.temporary.appendingPathComponent("shared-\(UUID().uuidString).sqlite").path
            let alice = try TemporaryConfigHome(), bob = try TemporaryConfigHome()
            #expect(try await LoginFlow.login(alice.marquee, api: api, port: server.port, as: "alice").status == 0)
            #expect(try await LoginFlow.login(bob.marquee, api: api, port: server.port, as: "bob").status == 0)

            let noted = try await alice.marquee.run(["watch", "add", String(Self.movie), "--note", "alice's private note", "--offline", "--env", api, "--store", store])
            #expect(noted.status == 0, "\(noted.standardError)")
            let bobsView = try await bob.marquee.run(["watchlist", "--env", api, "--store", store, "--offline"])
            #expect(!bobsView.standardOutput.contains("alice's private note"), "\(bobsView.standardOutput)")
            let bobsSync = try await bob.marquee.run(["sync", "--env", api, "--store", store])
            #expect(bobsSync.status == 0, "\(bobsSync.standardError)")
            #expect(storage.watchlist(owner: storage.owner(ofAccount: "bob")).isEmpty, "nothing of alice's went with bob's token")
            #expect(storage.watchlist(owner: storage.owner(ofAccount: "alice")).isEmpty, "and nothing was sent for her")

            let alicesSync = try await alice.marquee.run(["sync", "--env", api, "--store", store])
            #expect(alicesSync.status == 0, "\(alicesSync.standardError)")
            #expect(storage.watchlist(owner: storage.owner(ofAccount: "alice")).map(\.note) == ["alice's private note"])
            #expect(storage.watchlist(owner: storage.owner(ofAccount: "bob")).isEmpty)
        }
    }

    @Test("one config folder, two accounts: --account and MARQUEE_ACCOUNT pick the list; an account not signed in is refused, nothing recorded")
    func twoAccountsOneConfig() async throws {
        let storage = MemoryStorage(catalog: try Catalog.reference())
        try await withMovieServer(auth: LoginFlow.auth(), storage: storage) { server in
            let api = server.baseURL.absoluteString
            let home = try TemporaryConfigHome()
            let store = home.root.appendingPathComponent("movies.sqlite").path
            #expect(try await LoginFlow.login(home.marquee, api: api, port: server.port, as: "alice").status == 0)
            #expect(try await LoginFlow.login(home.marquee, api: api, port: server.port, as: "bob").status == 0)

            #expect(try await home.marquee.run(["watch", "add", "6", "--note", "as alice", "--env", api, "--store", store]).status == 0)
            #expect(try await home.marquee.run(["watch", "add", "7", "--note", "as bob", "--account", "bob", "--env", api, "--store", store]).status == 0)
            #expect(try await home.marquee.run(["watch", "add", "8", "--note", "as bob too", "--env", api, "--store", store], environment: ["MARQUEE_ACCOUNT": "bob"]).status == 0)
            #expect(storage.watchlist(owner: storage.owner(ofAccount: "alice")).map(\.movieID) == [6])
            #expect(Set(storage.watchlist(owner: storage.owner(ofAccount: "bob")).map(\.movieID)) == [7, 8])

            let carol = try await home.marquee.run(["watch", "add", "9", "--account", "carol", "--env", api, "--store", store])
            #expect(carol.status == 1)
            #expect(carol.errorLines == ["marquee: carol is not signed in to \(api); run 'marquee login --env \(api)' (nothing was changed)"])
            let alicesList = try await home.marquee.run(["watchlist", "--json", "--env", api, "--store", store, "--offline"])
            #expect(!alicesList.standardOutput.contains("\"movieId\":9") && !alicesList.standardOutput.contains("as bob"), "\(alicesList.standardOutput)")
        }
    }

    @Test("signed out by another device: the change is kept and the command says so in one line, non-zero; the catalogue works; the change goes once alice signs in again; --discard-pending drops and counts")
    func signedOut() async throws {
        let storage = MemoryStorage(catalog: try Catalog.reference())
        try await withMovieServer(auth: LoginFlow.auth(), storage: storage) { server in
            let api = server.baseURL.absoluteString
            let home = try TemporaryConfigHome()
            let store = home.root.appendingPathComponent("movies.sqlite").path
            #expect(try await LoginFlow.login(home.marquee, api: api, port: server.port, as: "alice").status == 0)
            #expect(try await home.marquee.run(["watch", "add", "6", "--env", api, "--store", store]).status == 0)
            #expect(storage.endSignIns(ofAccount: "alice", id: nil) == 2, "her device, and the page she approved it on")

            let later = try await home.marquee.run(["watch", "add", "7", "--note", "later", "--env", api, "--store", store])
            #expect(later.status == 1)
            #expect(later.errorLines == ["marquee: signed out of \(api) as alice: the session has ended; run 'marquee login' to sign in again (the change is kept here and sent then)"])
            #expect(try await home.marquee.run(["top-grossing", "--env", api, "--store", store]).status == 0, "the catalogue needs no person")
            let logout = try await home.marquee.run(["logout", "--env", api, "--store", store])
            #expect(logout.standardOutput == "alice is not signed in to \(api); 1 unsent watchlist change kept for the next sign-in.\n")

            #expect(try await LoginFlow.login(home.marquee, api: api, port: server.port, as: "alice", signUp: false).status == 0)
            #expect(try await home.marquee.run(["sync", "--env", api, "--store", store]).status == 0)
            #expect(Set(storage.watchlist(owner: storage.owner(ofAccount: "alice")).map(\.movieID)) == [6, 7])

            #expect(try await home.marquee.run(["watch", "add", "8", "--offline", "--env", api, "--store", store]).status == 0)
            let dropped = try await home.marquee.run(["logout", "--discard-pending", "--env", api, "--store", store])
            #expect(dropped.standardOutput == "Signed alice out of \(api); the session was ended at the server; 1 unsent watchlist change dropped.\n")
            #expect(!storage.watchlist(owner: storage.owner(ofAccount: "alice")).map(\.movieID).contains(8))
        }
    }

    @Test("alice's pending change, with bob's syncs on the same store killed at random moments: it reaches only alice's list, once")
    func killedWhileSharing() async throws {
        let storage = MemoryStorage(catalog: try Catalog.reference())
        try await withMovieServer(auth: LoginFlow.auth(), storage: storage) { server in
            let api = server.baseURL.absoluteString
            let store = TestFolders.temporary.appendingPathComponent("shared-\(UUID().uuidString).sqlite").path
            let alice = try TemporaryConfigHome(), bob = try TemporaryConfigHome()
            #expect(try await LoginFlow.login(alice.marquee, api: api, port: server.port, as: "alice").status == 0)
            #expect(try await LoginFlow.login(bob.marquee, api: api, port: server.port, as: "bob").status == 0)
            #expect(try await alice.marquee.run(["watch", "add", "6", "--note", "alice's", "--offline", "--env", api, "--store", store]).status == 0)
            for movie in 1...5 {
                #expect(try await bob.marquee.run(["watch", "add", String(movie), "--note", "bob's", "--offline", "--env", api, "--store", store]).status == 0)
            }
            var generator = SeededGenerator(seed: 36)
            for round in 0..<12 {
                let who = round.isMultiple(of: 3) ? alice : bob
                let process = try who.marquee.launch(["sync", "--env", api, "--store", store])
                try await Task.sleep(for: .milliseconds(Int.random(in: 0...150, using: &generator)))
                _ = await process.signal(SIGKILL)
            }
            #expect(try await bob.marquee.run(["sync", "--env", api, "--store", store]).status == 0)
            #expect(try await alice.marquee.run(["sync", "--env", api, "--store", store]).status == 0)
            #expect(storage.watchlist(owner: storage.owner(ofAccount: "alice")).map(\.note) == ["alice's"])
            #expect(storage.watchlistJournal(owner: storage.owner(ofAccount: "alice")).count == 1, "applied once")
            let bobs = storage.watchlist(owner: storage.owner(ofAccount: "bob"))
            #expect(Set(bobs.map(\.movieID)) == [1, 2, 3, 4, 5])
            #expect(bobs.allSatisfy { $0.note == "bob's" })
            #expect(storage.watchlistJournal(owner: storage.owner(ofAccount: "bob")).count == 5)
        }
    }
}
