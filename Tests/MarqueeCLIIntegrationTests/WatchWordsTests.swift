import Foundation
import MarqueeTestSupport
import MovieServer
import Movies
import ServerTestSupport
import Testing

/// `watch add` and `watch remove` keep their word against a real server: a note stays unless
/// replaced or cleared, a movie the server does not have is an error with nothing left pending,
/// and removing a movie that is not on the list changes nothing and says so.
@Suite("watch keeps its word", .serialized, .timeLimit(.minutes(3)))
struct WatchWordsTests {
    let marquee = MarqueeProcess()

    func signedIn(_ body: (_ api: String, _ storage: MemoryStorage) async throws -> Void) async throws {
        let storage = MemoryStorage(catalog: try Catalog.reference())
        try await withMovieServer(auth: LoginFlow.auth(), storage: storage) { server in
            let api = server.baseURL.absoluteString
            let login = try await LoginFlow.login(marquee, api: api, port: server.port, as: "alice")
            try #require(login.status == 0)
            try await body(api, storage)
        }
    }

    func run(_ arguments: [String], _ api: String) async throws -> MarqueeProcess.Outcome {
        try await marquee.run(arguments + ["--env", api])
    }

    /// How many changes wait on this machine, as `watchlist --json` says.
    func pending(_ api: String) async throws -> Int? {
        let view = try await run(["watchlist", "--json", "--offline"], api)
        let object = try JSONSerialization.jsonObject(with: Data(view.standardOutput.utf8)) as? [String: Any]
        return object?["pendingChanges"] as? Int
    }

    @Test("a note stays when the movie is added again, online or offline; --note replaces it; --clear-note removes it; --note '' is refused")
    func notes() async throws {
        try await signedIn { api, storage in
            let owner = storage.owner(ofAccount: "alice")
            let note = { storage.watchlist(owner: owner).first { $0.movieID == 6 }?.note }
            let noted = try await run(["watch", "add", "6", "--note", "Friday"], api)
            #expect(noted.status == 0, "\(noted.standardError)")
            #expect(noted.standardOutput == "Noted Deadpool (6) on the watchlist; sent to the server.\n", "the title is asked of the server when this machine has not stored it")
            #expect(note() == "Friday")

            let again = try await run(["watch", "add", "6"], api)
            #expect(again.standardOutput == "Deadpool (6) is on the watchlist already, its note kept; sent to the server.\n", "\(again.standardOutput)")
            #expect(note() == "Friday")
            let offline = try await run(["watch", "add", "6", "--offline"], api)
            #expect(offline.status == 0, "\(offline.standardError)")
            #expect(try await run(["sync"], api).status == 0)
            #expect(note() == "Friday", "the pending change kept the note too")

            let replaced = try await run(["watch", "add", "6", "--note", "Saturday"], api)
            #expect(replaced.status == 0)
            #expect(note() == "Saturday")
            let cleared = try await run(["watch", "add", "6", "--clear-note"], api)
            #expect(cleared.standardOutput.hasPrefix("Cleared the note of ") && cleared.standardOutput.hasSuffix("(6); sent to the server.\n"), "\(cleared.standardOutput)")
            #expect(note() == "")
            #expect(storage.watchlist(owner: owner).map(\.movieID) == [6])

            let empty = try await run(["watch", "add", "6", "--note", ""], api)
            #expect(empty.status == 64)
            #expect(empty.errorLines == ["marquee: an empty --note changes nothing: to remove the movie's note, use --clear-note (see 'marquee watch add --help')"])
            let both = try await run(["watch", "add", "6", "--note", "x", "--clear-note"], api)
            #expect(both.status == 64)
            #expect(both.errorLines.count == 1)
        }
    }

    @Test("a movie the server does not have: exit 1 with its reason, nothing pending; offline and not stored, kept and said to be unchecked, then dropped by the sync")
    func unknownMovie() async throws {
        try await signedIn { api, storage in
            let unknown = try await run(["watch", "add", "999999"], api)
            #expect(unknown.status == 1)
            #expect(unknown.standardOutput.isEmpty)
            #expect(unknown.errorLines == ["marquee: the server has no movie 999999: it was not added to the watchlist, and nothing is pending"])
            #expect(try await pending(api) == 0)
            #expect(storage.watchlist(owner: storage.owner(ofAccount: "alice")).isEmpty)

            let unchecked = try await run(["watch", "add", "424242", "--offline"], api)
            #expect(unchecked.status == 0)
            #expect(unchecked.standardOutput.hasPrefix("Added movie 424242 to the watchlist; pending:"), "\(unchecked.standardOutput)")
            #expect(unchecked.standardOutput.hasSuffix(" Movie 424242 is not stored here, so it could not be checked: if the server has no such movie, the change is dropped when sent.\n"))
            let synced = try await run(["sync"], api)
            #expect(synced.standardOutput.contains("1 dropped: the server has no movie 424242"), "\(synced.standardOutput)")

            #expect(try await run(["top-grossing"], api).status == 0)
            let stored = try await run(["watch", "add", "3", "--offline"], api)
            #expect(stored.standardOutput.hasPrefix("Added Captain America - Civil War (3) to the watchlist; pending:"), "\(stored.standardOutput)")
            #expect(!stored.standardOutput.contains("could not be checked"))
            #expect(storage.watchlist(owner: storage.owner(ofAccount: "alice")).isEmpty)
        }
    }

    @Test("removing a movie that is not on the list changes nothing, sends nothing, and says so; one on it is removed")
    func removeAbsent() async throws {
        try await signedIn { api, storage in
            let owner = storage.owner(ofAccount: "alice")
            let absent = try await run(["watch", "remove", "3"], api)
            #expect(absent.status == 0)
            #expect(absent.standardOutput == "Captain America - Civil War (3) is not on the watchlist; nothing was changed.\n")
            #expect(storage.watchlistJournal(owner: owner).isEmpty, "nothing was sent")
            let offline = try await run(["watch", "remove", "3", "--offline"], api)
            #expect(offline.standardOutput == "Captain America - Civil War (3) is not on the watchlist as this machine last saw it; nothing was changed ('marquee sync' fetches the server's list).\n")
            #expect(try await pending(api) == 0)

            #expect(try await run(["watch", "add", "3"], api).status == 0)
            let removed = try await run(["watch", "remove", "3"], api)
            #expect(removed.standardOutput == "Removed Captain America - Civil War (3) from the watchlist; sent to the server.\n", "\(removed.standardOutput)")
            #expect(storage.watchlist(owner: owner).isEmpty)
        }
    }
}
