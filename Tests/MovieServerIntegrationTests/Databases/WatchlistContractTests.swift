import Crypto
import Foundation
import MarqueeTestSupport
import MovieContract
import MovieServer
import MovieServerDatabases
import Movies
import NIOHTTP1
import ServerTestSupport
import Testing

extension ServerDatabaseTests {
    /// `/api/watchlist` on every backend: tokens name owners, keys make repeats harmless, and two
    /// devices' changes to one movie are settled by last writer wins with tombstones.
    @Suite("Watchlist on every backend")
    struct WatchlistContractTests {
        static let form = [("Content-Type", "application/x-www-form-urlencoded")]
        static let phone = ClientCredentials(id: "phone", secret: "phone-secret")
        static let auth: AuthConfiguration = {
            var auth = AuthConfiguration(requiresToken: false, otherClients: [phone], signingKey: SymmetricKey(data: Data(repeating: 7, count: 32)))
            auth.passwordHashCost = 4
            return auth
        }()

        @Test("writes, repeats and conflicts follow the rule; each owner sees only their list; a token is needed on a public server", arguments: Backend.allCases)
        func rule(backend: Backend) async throws {
            try await backend.withStorage { storage in
                try await withServerClient(auth: Self.auth, storage: storage) { client in
                    let owner = try await Watchlister(client, token: try await Self.token(client, "marquee-dev", "marquee-dev-secret"))
                    #expect(try await client.get("/api/watchlist").status == 401, "no token, though movies are public")
                    #expect(try await client.get("/api/watchlist/6", method: .PUT, headers: [("Idempotency-Key", "x")]).status == 401)

                    let first = try await owner.put(6, key: "k1", #"{"note":"a","changedAt":"2026-01-01T10:00:00Z","device":"d1"}"#)
                    #expect(first.status == 200)
                    #expect(first.json?["outcome"] as? String == "applied")
                    let again = try await owner.put(6, key: "k1", #"{"note":"a","changedAt":"2026-01-01T10:00:00Z","device":"d1"}"#)
                    #expect(again.status == 200)
                    #expect(again.body == first.body, "a repeat gets the first answer")
                    let reused = try await owner.put(6, key: "k1", #"{"note":"other"}"#)
                    #expect(reused.status == 422)
                    #expect(reused.json?["error"] as? String == "idempotency_key_reused")

                    let batch = try await owner.batch(key: "b1", [
                        Self.change("c1", 6, "remove", at: "2026-01-01T09:00:00Z", device: "d2"),
                        Self.change("c2", 1, "add", at: "2026-01-01T11:00:00Z", device: "d1"),
                        Self.change("c3", 1, "remove", at: "2026-01-01T12:00:00Z", device: "d2"),
                        Self.change("c4", 1, "add", at: "2026-01-01T11:30:00Z", device: "d1"),
                        Self.change("c5", 2, "add", note: "from a", at: "2026-01-01T13:00:00Z", device: "a"),
                        Self.change("c6", 2, "add", note: "from b", at: "2026-01-01T13:00:00Z", device: "b"),
                        Self.change("c7", 2, "add", note: "a again", at: "2026-01-01T13:00:00Z", device: "a"),
                        Self.change("c8", 424242, "add", at: "2026-01-01T13:00:00Z", device: "a"),
                        Self.change("c2", 1, "add", at: "2026-01-01T11:00:00Z", device: "d1"),
                    ])
                    #expect(batch.status == 200)
                    let outcomes = (batch.json?["results"] as? [[String: Any]])?.compactMap { $0["outcome"] as? String }
                    #expect(outcomes == [
                        "superseded", "applied", "applied", "superseded", "applied", "applied", "superseded", "unknownMovie", "repeated",
                    ], "an older removal loses; a tombstone stops an older add; at one time the greater device wins")
                    #expect(try await owner.put(424242, key: "k2", "").status == 404)

                    let list = try await owner.list()
                    #expect(list.status == 200)
                    #expect(list.headers.first(name: "cache-control") == "private, max-age=0")
                    #expect(Self.entries(list) == [[2: "from b"], [6: "a"]], "newest change first; movie 1 was removed")
                    let removed = (list.json?["removed"] as? [[String: Any]])?.map { "\($0["movieId"] ?? "?") \($0["changedAt"] ?? "?")" }
                    #expect(removed == ["1 2026-01-01T12:00:00.000Z"], "a removal is listed with its time, so that a device can order its changes after it")
                    let tag = try #require(list.headers.first(name: "etag"))
                    #expect(try await owner.list(ifNoneMatch: tag).status == 304)

                    let other = try await Watchlister(client, token: try await Self.token(client, "phone", "phone-secret"))
                    #expect(Self.entries(try await other.list()) == [], "another client's list is its own")
                    _ = try await other.put(1, key: "k1", "")
                    #expect(Self.entries(try await other.list()).count == 1, "the same key is another owner's own")
                    #expect(Self.entries(try await owner.list()).count == 2)

                    let journal = try await storage.watchlistJournal(owner: try await IdentityFixtures.owner("marquee-dev", in: storage))
                    #expect(journal.map(\.changeID) == ["k1", "c1", "c2", "c3", "c4", "c5", "c6", "c7", "c8", "k2"], "each change once, in order")
                }
            }
        }

        @Test("the list names each movie with the catalogue's title and year", arguments: Backend.allCases)
        func listNamesMovies(backend: Backend) async throws {
            try await backend.withStorage { storage in
                try await withServerClient(auth: Self.auth, storage: storage) { client in
                    let owner = try await Watchlister(client, token: try await Self.token(client, "marquee-dev", "marquee-dev-secret"))
                    let catalog = try Catalog.reference()
                    for movie in catalog.movies.prefix(3) { #expect(try await owner.put(movie.id, key: "k\(movie.id)", "").status == 200) }
                    let entries = try #require(try await owner.list().json?["entries"] as? [[String: Any]])
                    #expect(entries.count == 3)
                    for entry in entries {
                        let id = try #require(entry["movieId"] as? Int)
                        let movie = try #require(catalog.movie(id: id))
                        #expect(entry["title"] as? String == movie.name)
                        #expect(entry["year"] as? Int == movie.year)
                    }
                }
            }
        }

        @Test("a watchlist's size counts the movies on it: not its removals, not another owner's", arguments: Backend.allCases)
        func watchlistSize(backend: Backend) async throws {
            try await backend.withStorage { storage in
                #expect(try await storage.watchlistSize(owner: "a") == 0)
                let time: Int64 = 1_800_000_000_000
                let changes = [
                    WatchlistChangeRecord(id: "s1", movieID: 3, action: .add, note: "", changedAt: time, device: "d"),
                    WatchlistChangeRecord(id: "s2", movieID: 6, action: .add, note: "", changedAt: time, device: "d"),
                    WatchlistChangeRecord(id: "s3", movieID: 3, action: .remove, note: "", changedAt: time + 1, device: "d"),
                ]
                for (owner, changes) in [("a", changes), ("b", [WatchlistChangeRecord(id: "s4", movieID: 7, action: .add, note: "", changedAt: time, device: "e")])] {
                    let write = WatchlistWrite(owner: owner, key: "size-\(owner)", request: "POST /api/watchlist/changes", body: Array(owner.utf8), changes: changes, shape: .batch)
                    _ = try await storage.applyWatchlist(write, now: Date())
                }
                #expect(try await storage.watchlistSize(owner: "a") == 1)
                #expect(try await storage.watchlistSize(owner: "b") == 1)
                #expect(try await storage.watchlistSize(owner: "c") == 0)
            }
        }

        @Test("two changes of one movie with the same time, from one device or two: the first stands", arguments: Backend.allCases)
        func exactTies(backend: Backend) async throws {
            try await backend.withStorage { storage in
                try await withServerClient(auth: Self.auth, storage: storage) { client in
                    let owner = try await Watchlister(client, token: try await Self.token(client, "marquee-dev", "marquee-dev-secret"))
                    let batch = try await owner.batch(key: "tie", [
                        Self.change("t1", 3, "add", note: "first", at: "2026-01-01T13:00:00Z", device: "e"),
                        Self.change("t2", 3, "add", note: "second", at: "2026-01-01T13:00:00Z", device: "e"),
                        Self.change("t3", 3, "add", note: "another device", at: "2026-01-01T13:00:00.001Z", device: "d"),
                    ])
                    let outcomes = (batch.json?["results"] as? [[String: Any]])?.compactMap { $0["outcome"] as? String }
                    #expect(outcomes == ["applied", "superseded", "applied"], "at one time the first stands; d's later change wins")
                    let later = try await owner.put(3, key: "tie-again", #"{"note":"third","changedAt":"2026-01-01T13:00:00.001Z","device":"d"}"#)
                    #expect(later.json?["outcome"] as? String == "superseded", "in another request too")
                    let notes = (try await owner.list().json?["entries"] as? [[String: Any]])?.compactMap { $0["note"] as? String }
                    #expect(notes == ["another device"])

                    let draw = try await owner.batch(key: "draw", [
                        Self.change("u1", 4, "add", note: "from a", at: "2026-01-01T14:00:00Z", device: "a"),
                        Self.change("u2", 4, "add", note: "from b", at: "2026-01-01T14:00:00Z", device: "b"),
                    ])
                    let results = draw.json?["results"] as? [[String: Any]]
                    #expect(results?.compactMap { $0["outcome"] as? String } == ["applied", "applied"], "at one time the greater device wins")
                    #expect(results?.last?["changedAt"] as? String == "2026-01-01T14:00:00.001Z", "ordered a millisecond after the change it beat, so no two versions share a time")
                    let entry = (try await owner.list().json?["entries"] as? [[String: Any]])?.first { $0["movieId"] as? Int == 4 }
                    #expect(entry?["changedAt"] as? String == "2026-01-01T14:00:00.001Z" && entry?["note"] as? String == "from b")
                }
            }
        }

        @Test("a list names the feed position it was read at: read while 30 writes land, each list is exactly what the owner's events up to its position make, and the header carries it with a 304 too", arguments: Backend.allCases)
        func listNamesItsPosition(backend: Backend) async throws {
            try await backend.withStorage { storage in
                let movies = try Catalog.reference().movies.map(\.id)
                let reads = try await withThrowingTaskGroup(of: WatchlistRead?.self) { group in
                    for n in 0..<30 {
                        group.addTask {
                            let change = WatchlistChangeRecord(
                                id: "p\(n)", movieID: movies[n % movies.count], action: n % 4 == 3 ? .remove : .add, note: n % 4 == 3 ? "" : "n\(n)",
                                changedAt: 1_800_000_000_000 + Int64(n), device: "d"
                            )
                            let write = WatchlistWrite(owner: "o", key: "p\(n)", request: "PUT", body: Data("\(n)".utf8), changes: [change], shape: .single)
                            _ = try await storage.applyWatchlist(write, now: Date())
                            return nil
                        }
                        group.addTask { try await storage.watchlistRead(owner: "o") }
                    }
                    return try await group.reduce(into: [WatchlistRead]()) { if let read = $1 { $0.append(read) } }
                }
                let events = try await storage.events(after: 0, for: .reader(owner: "o"), limit: 1_000).filter { $0.kind == .watchlist }
                for read in reads {
                    var replayed: [Int: String] = [:]
                    for event in events where event.sequence <= read.feedPosition {
                        let change = try JSONDecoder().decode(FeedWire.WatchlistChange.self, from: Data(event.data.utf8))
                        replayed[change.movieId] = "\(change.note) \(change.changedAt) \(change.removed)"
                    }
                    let listed = Dictionary(uniqueKeysWithValues: read.entries.map {
                        ($0.movieID, "\($0.note) \(WatchlistClock.string($0.version.changedAt)) \($0.removed)")
                    })
                    #expect(listed == replayed, "the list read at \(read.feedPosition) is what the events up to it make")
                }
                let last = try await storage.watchlistRead(owner: "o")
                #expect(last.feedPosition == (try await storage.eventLogBounds()).latest)

                try await withServerClient(auth: Self.auth, storage: storage) { client in
                    let owner = try await Watchlister(client, token: try await Self.token(client, "marquee-dev", "marquee-dev-secret"))
                    #expect(try await owner.put(movies[0], key: "h", "").status == 200)
                    let first = try await owner.list()
                    let position = try #require(first.headers.first { $0.0.lowercased() == "feed-position" }.flatMap { Int64($0.1) })
                    #expect(position == (try await storage.eventLogBounds()).latest)
                    let tag = try #require(first.headers.first { $0.0.lowercased() == "etag" }?.1)
                    _ = try await storage.applyWatchlist(WatchlistWrite(
                        owner: "someone else", key: "x", request: "PUT", body: Data("x".utf8),
                        changes: [WatchlistChangeRecord(id: "x", movieID: movies[1], action: .add, note: "", changedAt: 1, device: "d")], shape: .single
                    ), now: Date())
                    let confirmed = try await owner.list(ifNoneMatch: tag)
                    #expect(confirmed.status == 304, "another person's change does not change this list's tag")
                    #expect(confirmed.headers.first { $0.0.lowercased() == "feed-position" }.flatMap { Int64($0.1) } == position + 1)
                }
            }
        }

        @Test("40 concurrent sends of overlapping batches, half under one key: each change is applied once", arguments: Backend.allCases)
        func concurrentRepeats(backend: Backend) async throws {
            try await backend.withStorage { storage in
                try await withServerClient(auth: Self.auth, storage: storage) { client in
                    let owner = try await Watchlister(client, token: try await Self.token(client, "marquee-dev", "marquee-dev-secret"))
                    let changes = (0..<30).map { index in
                        Self.change("n\(index)", [1, 2, 3, 4, 5, 6][index % 6], index.isMultiple(of: 3) ? "remove" : "add", at: "2026-02-01T10:00:\(String(format: "%02d", index))Z", device: "d")
                    }
                    let answers = try await withThrowingTaskGroup(of: (Int, ServerClient.Answer).self) { group in
                        for attempt in 0..<40 {
                            group.addTask {
                                let key = attempt.isMultiple(of: 2) ? "same" : "other-\(attempt)"
                                let slice = attempt.isMultiple(of: 2) ? changes : Array(changes[(attempt % 10)...])
                                return (attempt, try await owner.batch(key: key, slice))
                            }
                        }
                        return try await group.reduce(into: [(Int, ServerClient.Answer)]()) { $0.append($1) }
                    }
                    #expect(answers.allSatisfy { $0.1.status == 200 })
                    let sameKey = Set(answers.filter { $0.0.isMultiple(of: 2) }.map(\.1.body))
                    #expect(sameKey.count == 1, "every send under one key gets one answer")
                    let journal = try await storage.watchlistJournal(owner: try await IdentityFixtures.owner("marquee-dev", in: storage))
                    #expect(journal.count == 30)
                    #expect(Set(journal.map(\.changeID)).count == 30)
                    #expect(Self.entries(try await owner.list()).map { $0.keys.first! }.sorted() == [2, 3, 5, 6], "the last change per movie stands")
                }
            }
        }

        @Test("two instances on one database: concurrent batches through both apply each change once, and both list the same", arguments: Backend.databases)
        func twoInstances(backend: Backend) async throws {
            let location = try await backend.makeLocation()
            let firstStorage = try await location.open(logger: quietLogger)
            _ = try await firstStorage.importMovies(try Catalog.reference().movies, batchSize: 100) { _ in }
            let secondStorage = try await location.open(logger: quietLogger)
            try await finally(try await withServerClient(auth: Self.auth, storage: firstStorage) { first in
                try await withServerClient(auth: Self.auth, storage: secondStorage) { second in
                    let token = try await Self.token(first, "marquee-dev", "marquee-dev-secret")
                    let owners = [try await Watchlister(first, token: token), try await Watchlister(second, token: token)]
                    let changes = (0..<60).map { index in
                        Self.change("t\(index)", index % 10 + 1, index % 4 == 3 ? "remove" : "add", at: "2026-03-01T10:\(String(format: "%02d", index)):00Z", device: "d")
                    }
                    try await withThrowingTaskGroup(of: Int.self) { group in
                        for attempt in 0..<20 {
                            group.addTask {
                                let start = (attempt * 7) % 50
                                return try await owners[attempt % 2].batch(key: "k\(start)", Array(changes[start..<start + 10])).status
                            }
                        }
                        for try await status in group { #expect(status == 200) }
                    }
                    _ = try await owners[0].batch(key: "all", changes)
                    let journal = try await #require(firstStorage as? any WatchlistJournaling).watchlistJournal(owner: try await IdentityFixtures.owner("marquee-dev", in: firstStorage))
                    #expect(journal.count == 60)
                    #expect(Set(journal.map(\.changeID)).count == 60)
                    let lists = [Self.entries(try await owners[0].list()), Self.entries(try await owners[1].list())]
                    #expect(lists[0] == lists[1])
                    let expected = Set((50..<60).filter { $0 % 4 != 3 }.map { $0 % 10 + 1 })
                    #expect(Set(lists[0].compactMap(\.keys.first)) == expected, "the last change per movie stands")
                }
            }) {
                await secondStorage.close()
                await firstStorage.close()
            }
        }

        @Test("bad writes are one clear 400 (or 413), never applied", arguments: Backend.allCases)
        func badWrites(backend: Backend) async throws {
            try await backend.withStorage { storage in try await withServerClient(auth: Self.auth, storage: storage) { client in
                let owner = try await Watchlister(client, token: try await Self.token(client, "marquee-dev", "marquee-dev-secret"))
                let cases: [(String, ServerClient.Answer)] = [
                    ("no key", try await owner.put(6, key: nil, "")),
                    ("not JSON", try await owner.put(6, key: "a", "note=1")),
                    ("bad time", try await owner.put(6, key: "b", #"{"changedAt":"yesterday"}"#)),
                    ("year 1999", try await owner.put(6, key: "c", #"{"changedAt":"1999-12-31T00:00:00Z"}"#)),
                    ("long note", try await owner.put(6, key: "d", #"{"note":"\#(String(repeating: "n", count: 1001))"}"#)),
                    ("long note in code points", try await owner.put(6, key: "d2", #"{"note":"a\#(String(repeating: "\u{301}", count: 1000))"}"#)),
                    ("a NUL in a note", try await owner.put(6, key: "d3", #"{"note":"before\u0000after"}"#)),
                    ("an escape in a note", try await owner.put(6, key: "d4", #"{"note":"\u001b[2Jx"}"#)),
                    ("a C1 control in a note", try await owner.put(6, key: "d5", #"{"note":"x\u0085y"}"#)),
                    ("a NUL in a batch's note", try await owner.batch(key: "d6", [Self.change("n1", 6, "add", note: #"a\u0000b"#, at: "2026-01-01T00:00:00Z", device: "d")])),
                    ("removal with a note", try await owner.send("/api/watchlist/6", .DELETE, key: "e", #"{"note":"x"}"#)),
                    ("key of spaces", try await owner.put(6, key: "a b", "")),
                    ("empty batch", try await owner.batch(key: "f", [])),
                    ("501 changes", try await owner.batch(key: "g", (0...500).map { Self.change("z\($0)", 1, "add", at: "2026-01-01T00:00:00Z", device: "d") })),
                    ("unknown action", try await owner.batch(key: "h", [Self.change("y", 1, "toggle", at: "2026-01-01T00:00:00Z", device: "d")])),
                    ("negative id", try await owner.batch(key: "i", [Self.change("y", -1, "add", at: "2026-01-01T00:00:00Z", device: "d")])),
                ]
                for (name, answer) in cases {
                    #expect(answer.status == 400, "\(name): \(String(decoding: answer.body, as: UTF8.self))")
                    #expect(answer.json?["error"] as? String == "invalid_request", "\(name)")
                }
                let huge = try await owner.send("/api/watchlist/changes", .POST, key: "j", String(repeating: " ", count: 3 * 1024 * 1024))
                #expect(huge.status == 413)
                #expect(try await storage.watchlistJournal(owner: try await IdentityFixtures.owner("marquee-dev", in: storage)).isEmpty)
                #expect(Self.entries(try await owner.list()) == [])
                let accepted = try await owner.put(6, key: "k", #"{"note":"\#(String(repeating: "é", count: 1000))"}"#)
                #expect(accepted.status == 200, "a note of 1,000 code points is kept")
            } }
        }

        @Test("an answer is kept under its key for at least 24 hours (another body under it is still a 422 a day later); past 25 hours a purge frees the key, and the change's id still stops a repeat", arguments: Backend.allCases)
        func keysKeptADay(backend: Backend) async throws {
            try await backend.withStorage { storage in
                let start = Date(timeIntervalSince1970: 1_800_000_000)
                func put(note: String, key: String, changeID: String, at time: Date) async throws -> WatchlistAnswer {
                    let change = WatchlistChangeRecord(id: changeID, movieID: 6, action: .add, note: note, changedAt: 1_700_000_000_000, device: "d")
                    let write = WatchlistWrite(owner: "o", key: key, request: "PUT /api/watchlist/6", body: Data(note.utf8), changes: [change], shape: .single)
                    return try await storage.applyWatchlist(write, now: time)
                }
                let first = try await put(note: "a", key: "k", changeID: "c1", at: start)
                #expect(first.status == 200)
                #expect(try await put(note: "b", key: "k", changeID: "c2", at: start.addingTimeInterval(24 * 3600)).status == 422)
                #expect(try await put(note: "a", key: "k", changeID: "c1", at: start.addingTimeInterval(24 * 3600 + 60)) == first, "a repeat a day later gets the first answer")
                let later = start.addingTimeInterval(WatchlistRetention.keys + 3600)
                _ = try await put(note: "x", key: "other", changeID: "c3", at: later)
                let repeated = try await put(note: "a", key: "k", changeID: "c1", at: later.addingTimeInterval(1))
                #expect(repeated.status == 200, "the key was purged: no 422")
                #expect(repeated.body.contains("repeated"), "the change's id is kept for good: \(repeated.body)")
                let journal = try await storage.watchlistJournal(owner: "o")
                #expect(journal.filter { $0.changeID == "c1" }.count == 1, "c1 applied once: \(journal)")
            }
        }

        @Test("a change stamped past the server's clock plus five minutes counts as made then; its retry is still a repeat, naming its first time and outcome", arguments: Backend.allCases)
        func futureChangesAreClamped(backend: Backend) async throws {
            try await backend.withStorage { storage in
                let received: Int64 = 1_800_000_000_000
                let farFuture = try #require(WatchlistClock.milliseconds("9999-12-31T23:59:59Z"))
                func put(_ id: String, movie: Int, at time: Int64, note: String = "", receivedAt: Int64 = received, key: String? = nil) async throws -> WatchlistAnswer {
                    let change = WatchlistChangeRecord(id: id, movieID: movie, action: .add, note: note, changedAt: time, device: "d")
                    let write = WatchlistWrite(owner: "o", key: key ?? id, request: "PUT /api/watchlist/\(movie)", body: Data("\(id)\(time)".utf8), changes: [change], shape: .single, receivedAt: receivedAt)
                    return try await storage.applyWatchlist(write, now: Date(timeIntervalSince1970: Double(receivedAt) / 1000))
                }
                #expect(WatchlistWrite.futureMargin == 300_000)
                let wrongClock = try await put("c1", movie: 6, at: farFuture, note: "from 9999")
                #expect(wrongClock.body.contains(#""changedAt":"\#(WatchlistClock.string(received + 300_000))""#), "\(wrongClock.body)")
                let withinMargin = try await put("c2", movie: 7, at: received + 299_000)
                #expect(withinMargin.body.contains(WatchlistClock.string(received + 299_000)), "a clock a little ahead is taken as it is")
                let later = try await put("c3", movie: 6, at: received + 600_001, note: "ten minutes on", receivedAt: received + 600_000)
                #expect(later.body.contains(#""outcome":"applied""#), "a change made later, with a right clock, wins: \(later.body)")
                let retry = try await put("c1", movie: 6, at: farFuture, note: "from 9999", receivedAt: received + 900_000, key: "another key")
                #expect(retry.body.contains(#""outcome":"repeated""#), "\(retry.body)")
                let entries = try await storage.watchlist(owner: "o")
                #expect(entries.first { $0.movieID == 6 }?.note == "ten minutes on")
                #expect(entries.allSatisfy { $0.version.changedAt < received + 1_000_000 })

                let batch = WatchlistWrite(
                    owner: "o", key: "b", request: "POST changes", body: Data("b".utf8),
                    changes: [
                        WatchlistChangeRecord(id: "c4", movieID: 7, action: .add, note: "ahead", changedAt: farFuture, device: "d"),
                        WatchlistChangeRecord(id: "c5", movieID: 6, action: .remove, note: "", changedAt: received, device: "e"),
                        WatchlistChangeRecord(id: "c2", movieID: 7, action: .add, note: "", changedAt: received + 299_000, device: "d"),
                    ],
                    shape: .batch, receivedAt: received + 900_000
                )
                let answer = try await storage.applyWatchlist(batch, now: Date(timeIntervalSince1970: Double(received + 900_000) / 1000))
                #expect(answer.body == #"{"results":[{"id":"c4","movieId":7,"outcome":"applied","changedAt":"\#(WatchlistClock.string(received + 1_200_000))"},"#
                    + #"{"id":"c5","movieId":6,"outcome":"superseded","changedAt":"\#(WatchlistClock.string(received))"},"#
                    + #"{"id":"c2","movieId":7,"outcome":"repeated","changedAt":"\#(WatchlistClock.string(received + 299_000))","firstOutcome":"applied"}]}"#,
                    "each change with the time the server orders it by; a repeat with the time it was ordered by when first taken, and what it became then"
                )

                // The batch's first answer was lost: sent again an hour later, under another key.
                var retried = batch
                retried.key = "b again"
                retried.latestChangeTime = received + 3_600_000 + WatchlistWrite.futureMargin
                let again = try await storage.applyWatchlist(retried, now: Date(timeIntervalSince1970: Double(received + 3_600_000) / 1000))
                #expect(again.body == #"{"results":[{"id":"c4","movieId":7,"outcome":"repeated","changedAt":"\#(WatchlistClock.string(received + 1_200_000))","firstOutcome":"applied"},"#
                    + #"{"id":"c5","movieId":6,"outcome":"repeated","changedAt":"\#(WatchlistClock.string(received))","firstOutcome":"superseded"},"#
                    + #"{"id":"c2","movieId":7,"outcome":"repeated","changedAt":"\#(WatchlistClock.string(received + 299_000))","firstOutcome":"applied"}]}"#,
                    "the times stored the first time, not the bound of an hour later: \(again.body)"
                )
            }
        }

        @Test("a device's later change of a movie wins over its earlier one though both were brought back to the server's bound; an older one still loses, from any device", arguments: Backend.allCases)
        func sameDeviceKeepsItsOrder(backend: Backend) async throws {
            try await backend.withStorage { storage in
                let received: Int64 = 1_800_000_000_000
                let dayAhead = received + 86_400_000
                func change(_ id: String, _ note: String, at time: Int64, device: String = "d") -> WatchlistChangeRecord {
                    WatchlistChangeRecord(id: id, movieID: 6, action: .add, note: note, changedAt: time, device: device)
                }
                func send(_ key: String, _ changes: [WatchlistChangeRecord], at time: Int64) async throws -> String {
                    let write = WatchlistWrite(
                        owner: "o", key: key, request: "POST changes", body: Data(key.utf8), changes: changes, shape: .batch, receivedAt: time
                    )
                    return try await storage.applyWatchlist(write, now: Date(timeIntervalSince1970: Double(time) / 1000)).body
                }
                let first = try await send("b1", [change("a", "first", at: dayAhead), change("b", "second", at: dayAhead + 1)], at: received)
                #expect(first.contains(#""id":"b","movieId":6,"outcome":"applied","changedAt":"\#(WatchlistClock.string(received + 300_001))""#), "\(first)")
                let third = try await send("b2", [change("c", "third", at: dayAhead + 2)], at: received + 1000)
                #expect(third.contains(#""outcome":"applied","changedAt":"\#(WatchlistClock.string(received + 301_000))""#), "\(third)")
                let older = try await send("b3", [change("o", "older", at: received - 60_000)], at: received + 2000)
                #expect(older.contains(#""outcome":"superseded""#), "an older change of the device loses: \(older)")
                let other = try await send("b4", [change("e", "other device", at: received + 2000, device: "e")], at: received + 2000)
                #expect(other.contains(#""outcome":"superseded""#), "another device's change keeps to the times: \(other)")
                #expect(try await storage.watchlist(owner: "o").map(\.note) == ["third"])
            }
        }

        @Test("every RFC 3339 time is read over HTTP: offsets to ±23:59 and a leap second")
        func rfc3339Times() async throws {
            try await withServerClient(auth: Self.auth) { client in
                let owner = try await Watchlister(client, token: try await Self.token(client, "marquee-dev", "marquee-dev-secret"))
                for (index, time) in ["2020-06-01T00:00:00.000-23:59", "2020-06-01T00:00:00+23:59", "2016-12-31T23:59:60Z"].enumerated() {
                    let answer = try await owner.put(6 + index, key: "t\(index)", #"{"changedAt":"\#(time)"}"#)
                    #expect(answer.status == 200, "\(time): \(String(decoding: answer.body, as: UTF8.self))")
                }
                let listed = String(decoding: try await owner.list().body, as: UTF8.self)
                for expected in ["2020-06-01T23:59:00.000Z", "2020-05-31T00:01:00.000Z", "2016-12-31T23:59:59.999Z"] {
                    #expect(listed.contains(expected), "\(listed)")
                }
            }
        }

        /// A person's access token: the account named `id`, signed in (made on first use) through
        /// the client `id` with `secret`, the device flow's whole way.
        static func token(_ client: ServerClient, _ id: String, _ secret: String) async throws -> String {
            let exists = try await client.server.server.accounts.list().contains { $0.name == id }
            return try await PersonSignIn.tokens(id, signUp: !exists, client: ClientCredentials(id: id, secret: secret), on: client).access
        }

        static func change(_ id: String, _ movie: Int, _ action: String, note: String? = nil, at time: String, device: String) -> String {
            let noteField = note.map { #","note":"\#($0)""# } ?? ""
            return #"{"id":"\#(id)","movieId":\#(movie),"action":"\#(action)"\#(noteField),"changedAt":"\#(time)","device":"\#(device)"}"#
        }

        /// The listed entries as `[movie id: note]`, in order.
        static func entries(_ answer: ServerClient.Answer) -> [[Int: String]] {
            ((answer.json?["entries"] as? [[String: Any]]) ?? []).map { [($0["movieId"] as? Int) ?? -1: ($0["note"] as? String) ?? "?"] }
        }
    }
}

/// One owner's requests to `/api/watchlist`, with their token.
struct Watchlister: Sendable {
    let client: ServerClient
    let token: String

    init(_ client: ServerClient, token: String) async throws {
        self.client = client
        self.token = token
    }

    func put(_ movie: Int, key: String?, _ body: String) async throws -> ServerClient.Answer {
        try await send("/api/watchlist/\(movie)", .PUT, key: key, body)
    }

    func batch(key: String, _ changes: [String]) async throws -> ServerClient.Answer {
        try await send("/api/watchlist/changes", .POST, key: key, #"{"changes":[\#(changes.joined(separator: ","))]}"#)
    }

    func list(ifNoneMatch: String? = nil) async throws -> ServerClient.Answer {
        try await client.get("/api/watchlist", headers: [("Authorization", "Bearer \(token)")] + (ifNoneMatch.map { [("If-None-Match", $0)] } ?? []))
    }

    /// Sends a write, and again under the same key while the server answers 503 (its database
    /// did not answer in time, as on a loaded machine), as a client would. Concurrent writes of
    /// one owner are applied one after another, and the client's pool holds a few connections, so a
    /// request may wait its turn for long on a loaded machine: it is given a minute.
    func send(_ path: String, _ method: HTTPMethod, key: String?, _ body: String) async throws -> ServerClient.Answer {
        var headers = [("Authorization", "Bearer \(token)"), ("Content-Type", "application/json")]
        if let key { headers.append(("Idempotency-Key", key)) }
        var answer = try await client.get(path, method: method, headers: headers, body: body, timeout: 60)
        for _ in 0..<20 where answer.status == 503 {
            try await Task.sleep(for: .milliseconds(200))
            answer = try await client.get(path, method: method, headers: headers, body: body, timeout: 60)
        }
        return answer
    }
}
