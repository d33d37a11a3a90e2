import Foundation
import MarqueeTestSupport
import MovieContract
import MovieServer
import MovieServerDatabases
import ServerTestSupport
import Testing

extension ServerDatabaseTests {
    /// `/api/diary` on every backend: the shelf's engine with entries keyed by their own ids, so
    /// that one movie may be logged any number of times.
    @Suite("The diary on every backend")
    struct DiaryContractTests {
        typealias Watchlist = WatchlistContractTests

        static func entry(_ id: String, key: String, movie: Int, on day: String, note: String = "", at time: String = "2026-01-01T10:00:00Z") -> String {
            #"{"id":"\#(id)","key":"\#(key)","value":{"movieId":\#(movie),"watchedOn":"\#(day)","rewatch":false,"note":"\#(note)"},"changedAt":"\#(time)","device":"d"}"#
        }

        static func removal(_ id: String, key: String, at time: String) -> String {
            #"{"id":"\#(id)","key":"\#(key)","changedAt":"\#(time)","device":"d"}"#
        }

        static func batch(_ person: Watchlister, key: String, _ changes: [String]) async throws -> ServerClient.Answer {
            try await person.send("/api/diary/changes", .POST, key: key, #"{"changes":[\#(changes.joined(separator: ","))]}"#)
        }

        @Test("one movie logged twice is two entries; a removal is a tombstone; the title comes with each; unknown movies are refused", arguments: Backend.allCases)
        func entries(backend: Backend) async throws {
            try await backend.withStorage { storage in try await withServerClient(auth: Watchlist.auth, storage: storage) { client in
                let alice = try await Watchlister(client, token: try await Watchlist.token(client, "marquee-dev", "marquee-dev-secret"))
                let written = try await Self.batch(alice, key: "b1", [
                    Self.entry("c1", key: "e1", movie: 6, on: "2020-01-01"),
                    Self.entry("c2", key: "e2", movie: 6, on: "2021-01-01", note: "again"),
                    Self.entry("c3", key: "e3", movie: 424242, on: "2021-01-01"),
                    Self.removal("c4", key: "e1", at: "2026-01-01T11:00:00Z"),
                ])
                let outcomes = (written.json?["results"] as? [[String: Any]])?.compactMap { $0["outcome"] as? String }
                #expect(outcomes == ["applied", "applied", "unknownMovie", "applied"], "\(String(decoding: written.body, as: UTF8.self))")
                let list = try await alice.client.get("/api/diary", headers: [("Authorization", "Bearer \(alice.token)")])
                let entries = (list.json?["entries"] as? [[String: Any]]) ?? []
                #expect(entries.compactMap { $0["key"] as? String } == ["e2"])
                #expect(entries.first?["title"] as? String == "Deadpool")
                #expect(((entries.first?["value"] as? [String: Any])?["note"] as? String) == "again")
                #expect((list.json?["removed"] as? [[String: Any]])?.compactMap { $0["key"] as? String } == ["e1"])
            } }
        }

        @Test("bad entries are one clear 400, nothing stored: a day in the future, before 1888, not a day; movie 0; a key with a space; a note with a control character", arguments: Backend.allCases)
        func badEntries(backend: Backend) async throws {
            try await backend.withStorage { storage in try await withServerClient(auth: Watchlist.auth, storage: storage) { client in
                let alice = try await Watchlister(client, token: try await Watchlist.token(client, "marquee-dev", "marquee-dev-secret"))
                let future = CalendarDate.string(from: Date().addingTimeInterval(3 * 86_400))
                let cases: [(String, String, String)] = [
                    ("future", Self.entry("a", key: "e", movie: 6, on: future), "is in the future"),
                    ("1887", Self.entry("b", key: "e", movie: 6, on: "1887-12-31"), "before 1888-01-01"),
                    ("not a day", Self.entry("c", key: "e", movie: 6, on: "2020-02-30"), "is not a date"),
                    ("movie 0", Self.entry("d", key: "e", movie: 0, on: "2020-01-01"), "a movie id is a positive whole number"),
                    ("key with a space", Self.entry("e", key: "e 1", movie: 6, on: "2020-01-01"), "a diary entry's id"),
                    ("control character", Self.entry("f", key: "e", movie: 6, on: "2020-01-01", note: #"a\u001bb"#), "control characters"),
                ]
                for (name, change, words) in cases {
                    let answer = try await Self.batch(alice, key: name.replacingOccurrences(of: " ", with: "-"), [change])
                    #expect(answer.status == 400, "\(name): \(String(decoding: answer.body, as: UTF8.self))")
                    #expect((answer.json?["error_description"] as? String)?.contains(words) == true, "\(name): \(String(decoding: answer.body, as: UTF8.self))")
                }
                let list = try await alice.client.get("/api/diary", headers: [("Authorization", "Bearer \(alice.token)")])
                #expect((list.json?["entries"] as? [Any])?.isEmpty == true)
            } }
        }
    }
}

extension ServerDatabaseTests.DiaryContractTests {
    @Test("2,500 entries read 1,000 at a time: each page by key, after the one before, every entry once; a bad limit or after is a 400", arguments: Backend.allCases)
    func pages(backend: Backend) async throws {
        try await backend.withStorage { storage in try await withServerClient(auth: Watchlist.auth, storage: storage) { client in
            let alice = try await Watchlister(client, token: try await Watchlist.token(client, "marquee-dev", "marquee-dev-secret"))
            let owner = try await IdentityFixtures.owner("marquee-dev", in: storage)
            let keys = (0..<2_500).map { String(format: "e%05d", $0) }
            for (part, start) in stride(from: 0, to: keys.count, by: 500).enumerated() {
                let changes = keys[start..<start + 500].map { key in
                    ShelfChangeRecord(id: "c-\(key)", kind: Diary.name, key: key, value: #"{"movieId":6,"note":"","rewatch":false,"watchedOn":"2020-01-01"}"#,
                                      changedAt: 1_700_000_000_000, device: "d")
                }
                let write = ShelfWrite(owner: owner, account: nil, kind: Diary.name, key: "fill\(part)", body: Data([UInt8(part)]), changes: changes, movies: [:])
                #expect(try await storage.applyShelf(write, now: Date()).status == 200)
            }
            var seen: [String] = []
            var after: String?
            var pages = 0
            repeat {
                let query = "limit=1000" + (after.map { "&after=\($0)" } ?? "")
                let page = try await alice.client.get("/api/diary?\(query)", headers: [("Authorization", "Bearer \(alice.token)")])
                #expect(page.status == 200 && page.headers.first(name: "etag") != nil)
                seen += ((page.json?["entries"] as? [[String: Any]]) ?? []).compactMap { $0["key"] as? String }
                after = page.json?["next"] as? String
                pages += 1
            } while after != nil && pages < 10
            #expect(pages == 3)
            #expect(seen == keys, "by key, each once")
            let unasked = try await alice.client.get("/api/diary", headers: [("Authorization", "Bearer \(alice.token)")])
            #expect((unasked.json?["entries"] as? [Any])?.count == 1_000 && unasked.json?["next"] as? String == keys[999], "1,000 a page unless asked")
            for query in ["limit=0", "limit=5001", "limit=ten", "after=", "limit=10&limit=20", "page=2"] {
                let answer = try await alice.client.get("/api/diary?\(query)", headers: [("Authorization", "Bearer \(alice.token)")])
                #expect(answer.status == 400, "\(query)")
            }
        } }
    }
}
