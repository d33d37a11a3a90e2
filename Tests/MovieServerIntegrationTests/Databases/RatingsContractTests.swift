import Foundation
import MarqueeTestSupport
import MovieContract
import MovieServer
import MovieServerDatabases
import ServerTestSupport
import Testing

extension ServerDatabaseTests {
    /// `/api/ratings` on every backend: the shelf's engine, as the watchlist's, with one set of
    /// tables for every kind.
    @Suite("Ratings on every backend")
    struct RatingsContractTests {
        typealias Watchlist = WatchlistContractTests

        static func rating(_ id: String, _ movie: Int, _ score: Int?, at time: String, device: String) -> String {
            let value = score.map { #","value":{"score":\#($0)}"# } ?? ""
            return #"{"id":"\#(id)","key":"\#(movie)"\#(value),"changedAt":"\#(time)","device":"\#(device)"}"#
        }

        static func batch(_ person: Watchlister, key: String, _ changes: [String]) async throws -> ServerClient.Answer {
            try await person.send("/api/ratings/changes", .POST, key: key, #"{"changes":[\#(changes.joined(separator: ","))]}"#)
        }

        static func list(_ person: Watchlister, ifNoneMatch: String? = nil) async throws -> ServerClient.Answer {
            try await person.client.get("/api/ratings", headers: [("Authorization", "Bearer \(person.token)")] + (ifNoneMatch.map { [("If-None-Match", $0)] } ?? []))
        }

        /// The listed ratings as `[movie key: score]`, in order.
        static func scores(_ answer: ServerClient.Answer) -> [[String: Int]] {
            ((answer.json?["entries"] as? [[String: Any]]) ?? []).map { entry in
                [(entry["key"] as? String) ?? "?": ((entry["value"] as? [String: Any])?["score"] as? Int) ?? -1]
            }
        }

        @Test("ratings follow the engine's rule: repeats, a key reused, the later version, tombstones, unknown movies; each person sees their own; a token is needed", arguments: Backend.allCases)
        func rule(backend: Backend) async throws {
            try await backend.withStorage { storage in
                try await withServerClient(auth: Watchlist.auth, storage: storage) { client in
                    let alice = try await Watchlister(client, token: try await Watchlist.token(client, "marquee-dev", "marquee-dev-secret"))
                    #expect(try await client.get("/api/ratings").status == 401, "no token")
                    let first = try await Self.batch(alice, key: "b1", [
                        Self.rating("r1", 6, 7, at: "2026-01-01T10:00:00Z", device: "d1"),
                        Self.rating("r2", 6, 9, at: "2026-01-01T09:00:00Z", device: "d2"),
                        Self.rating("r3", 1, 4, at: "2026-01-01T11:00:00Z", device: "d1"),
                        Self.rating("r4", 1, nil, at: "2026-01-01T12:00:00Z", device: "d2"),
                        Self.rating("r5", 1, 10, at: "2026-01-01T11:30:00Z", device: "d1"),
                        Self.rating("r6", 424242, 5, at: "2026-01-01T11:30:00Z", device: "d1"),
                        Self.rating("r1", 6, 7, at: "2026-01-01T10:00:00Z", device: "d1"),
                    ])
                    #expect(first.status == 200, "\(String(decoding: first.body, as: UTF8.self))")
                    let outcomes = (first.json?["results"] as? [[String: Any]])?.compactMap { $0["outcome"] as? String }
                    #expect(outcomes == ["applied", "superseded", "applied", "applied", "superseded", "unknownMovie", "repeated"])
                    let again = try await Self.batch(alice, key: "b1", [Self.rating("r1", 6, 7, at: "2026-01-01T10:00:00Z", device: "d1")])
                    #expect(again.status == 422, "the same key with another body")
                    let repeated = try await Self.batch(alice, key: "b2", [Self.rating("r1", 6, 8, at: "2026-01-01T10:00:00Z", device: "d1")])
                    #expect(repeated.status == 422, "a change id sent again with another score")

                    let list = try await Self.list(alice)
                    #expect(list.status == 200)
                    #expect(Self.scores(list) == [["6": 7]], "movie 1's rating was cleared; the later clear stops the older 10")
                    let entry = (list.json?["entries"] as? [[String: Any]])?.first
                    #expect(entry?["title"] as? String != nil, "the catalogue's title")
                    let removed = (list.json?["removed"] as? [[String: Any]])?.map { "\($0["key"] ?? "?") \($0["changedAt"] ?? "?")" }
                    #expect(removed == ["1 2026-01-01T12:00:00.000Z"])
                    #expect(list.headers.first(name: "cache-control") == "private, max-age=0")
                    let tag = try #require(list.headers.first(name: "etag"))
                    #expect(try await Self.list(alice, ifNoneMatch: tag).status == 304)
                    #expect(list.headers.first(name: "feed-position") != nil)

                    let phone = try await Watchlister(client, token: try await Watchlist.token(client, "phone", "phone-secret"))
                    #expect(Self.scores(try await Self.list(phone)) == [], "another person's ratings are their own")
                    #expect(try await Self.batch(phone, key: "b1", [Self.rating("r1", 2, 3, at: "2026-01-01T10:00:00Z", device: "p")]).status == 200,
                            "the same key and change id are another owner's own")
                    #expect(Self.scores(try await Self.list(phone)) == [["2": 3]])
                    #expect(Self.scores(try await Self.list(alice)) == [["6": 7]])
                    let watchlist = try await Watchlister(client, token: alice.token).list()
                    #expect(Watchlist.entries(watchlist) == [], "a rating is not a watchlist entry")
                }
            }
        }

        @Test("bad ratings are one clear 400 (or 413), nothing stored: a score of 0, 11, 7.5 or 'ten', a key that is no movie, a bad time", arguments: Backend.allCases)
        func badRatings(backend: Backend) async throws {
            try await backend.withStorage { storage in try await withServerClient(auth: Watchlist.auth, storage: storage) { client in
                let alice = try await Watchlister(client, token: try await Watchlist.token(client, "marquee-dev", "marquee-dev-secret"))
                let at = "2026-01-01T00:00:00Z"
                let cases: [(String, ServerClient.Answer)] = [
                    ("no key", try await alice.send("/api/ratings/changes", .POST, key: nil, #"{"changes":[\#(Self.rating("a", 6, 7, at: at, device: "d"))]}"#)),
                    ("score 0", try await Self.batch(alice, key: "a", [Self.rating("a", 6, 0, at: at, device: "d")])),
                    ("score 11", try await Self.batch(alice, key: "b", [Self.rating("b", 6, 11, at: at, device: "d")])),
                    ("score 7.5", try await Self.batch(alice, key: "c", [#"{"id":"c","key":"6","value":{"score":7.5},"changedAt":"\#(at)","device":"d"}"#])),
                    ("score ten", try await Self.batch(alice, key: "d", [#"{"id":"d","key":"6","value":{"score":"ten"},"changedAt":"\#(at)","device":"d"}"#])),
                    ("key not a movie", try await Self.batch(alice, key: "e", [#"{"id":"e","key":"six","value":{"score":7},"changedAt":"\#(at)","device":"d"}"#])),
                    ("key 0", try await Self.batch(alice, key: "f", [Self.rating("f", 0, 7, at: at, device: "d")])),
                    ("key 06", try await Self.batch(alice, key: "f2", [#"{"id":"f2","key":"06","value":{"score":7},"changedAt":"\#(at)","device":"d"}"#])),
                    ("bad time", try await Self.batch(alice, key: "g", [Self.rating("g", 6, 7, at: "yesterday", device: "d")])),
                    ("empty batch", try await Self.batch(alice, key: "h", [])),
                    ("501 changes", try await Self.batch(alice, key: "i", (0...500).map { Self.rating("z\($0)", 6, 7, at: at, device: "d") })),
                    ("not JSON", try await alice.send("/api/ratings/changes", .POST, key: "j", "score=7")),
                ]
                for (name, answer) in cases {
                    #expect(answer.status == 400, "\(name): \(String(decoding: answer.body, as: UTF8.self))")
                    #expect(answer.json?["error"] as? String == "invalid_request", "\(name)")
                }
                let huge = try await alice.send("/api/ratings/changes", .POST, key: "k", String(repeating: " ", count: 3 * 1024 * 1024))
                #expect(huge.status == 413)
                #expect(Self.scores(try await Self.list(alice)) == [])
                #expect((try await Self.list(alice).json?["removed"] as? [Any])?.isEmpty == true)
                let clearUnknown = try await Self.batch(alice, key: "l", [Self.rating("l", 424242, nil, at: at, device: "d")])
                #expect((clearUnknown.json?["results"] as? [[String: Any]])?.first?["outcome"] as? String == "unknownMovie",
                        "a clear of a movie the catalogue lacks keeps no tombstone: \(String(decoding: clearUnknown.body, as: UTF8.self))")
                #expect((try await Self.list(alice).json?["removed"] as? [Any])?.isEmpty == true)
            } }
        }

        @Test("40 concurrent sends of overlapping rating batches, half under one key: each change is applied once, and the last score stands", arguments: Backend.allCases)
        func concurrentSends(backend: Backend) async throws {
            try await backend.withStorage { storage in try await withServerClient(auth: Watchlist.auth, storage: storage) { client in
                let alice = try await Watchlister(client, token: try await Watchlist.token(client, "marquee-dev", "marquee-dev-secret"))
                let changes = (1...10).map { index in Self.rating("c\(index)", 6, index, at: "2026-01-01T10:00:\(String(format: "%02d", index))Z", device: "d") }
                let answers = try await withThrowingTaskGroup(of: ServerClient.Answer.self) { group in
                    for attempt in 0..<40 {
                        group.addTask {
                            try await Self.batch(alice, key: attempt % 2 == 0 ? "shared" : "own-\(attempt)", attempt % 2 == 0 ? changes : Array(changes.shuffled().prefix(5)))
                        }
                    }
                    return try await group.reduce(into: [ServerClient.Answer]()) { $0.append($1) }
                }
                #expect(answers.allSatisfy { $0.status == 200 }, "\(answers.map(\.status))")
                // Answers under the shared key are one answer sent again: count each key's once.
                var seen = Set<String>()
                var taken: [String: Int] = [:]
                for answer in answers where seen.insert(String(decoding: answer.body, as: UTF8.self)).inserted {
                    for result in (answer.json?["results"] as? [[String: Any]]) ?? [] where result["outcome"] as? String != "repeated" {
                        taken[result["id"] as? String ?? "?", default: 0] += 1
                    }
                }
                #expect(taken == Dictionary(uniqueKeysWithValues: (1...10).map { ("c\($0)", 1) }), "each change taken once")
                #expect(Self.scores(try await Self.list(alice)) == [["6": 10]], "the latest change stands, whatever order the batches landed in")
                let account = try #require(try await storage.account(named: "marquee-dev"))
                let removed = try await storage.removeAccount(named: "marquee-dev")
                #expect(removed)
                #expect(try await storage.shelfRead(owner: WatchlistOwner.account(id: account.id), kind: Ratings.name).entries.isEmpty, "an account removed takes its ratings")
            } }
        }
    }
}
