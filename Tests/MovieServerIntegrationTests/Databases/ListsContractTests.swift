import Foundation
import MarqueeTestSupport
import MovieContract
import MovieServer
import MovieServerDatabases
import ServerTestSupport
import Testing

extension ServerDatabaseTests {
    /// `/api/lists` and `/api/listItems` on every backend: a list is a record, its movies are
    /// records keyed `list/movie`, and a list holds at most 100,000 of them.
    @Suite("Lists on every backend")
    struct ListsContractTests {
        typealias Watchlist = WatchlistContractTests

        static func item(_ id: String, list: String, movie: Int, position: String, at time: String = "2026-01-01T10:00:00Z") -> String {
            #"{"id":"\#(id)","key":"\#(list)/\#(movie)","value":{"position":"\#(position)","note":""},"changedAt":"\#(time)","device":"d"}"#
        }

        static func batch(_ person: Watchlister, _ kind: String, key: String, _ changes: [String]) async throws -> ServerClient.Answer {
            try await person.send("/api/\(kind)/changes", .POST, key: key, #"{"changes":[\#(changes.joined(separator: ","))]}"#)
        }

        @Test("a list and its items travel as records; bad names, keys and positions are a clear 400; the 100,001st item of a list is refused whole, another list's is not", arguments: Backend.allCases)
        func listsAndItems(backend: Backend) async throws {
            try await backend.withStorage { storage in try await withServerClient(auth: Watchlist.auth, storage: storage) { client in
                let alice = try await Watchlister(client, token: try await Watchlist.token(client, "marquee-dev", "marquee-dev-secret"))
                let made = try await Self.batch(alice, "lists", key: "l1", [
                    #"{"id":"c1","key":"list-a","value":{"name":"Noir","description":"dark"},"changedAt":"2026-01-01T10:00:00Z","device":"d"}"#,
                ])
                #expect(made.status == 200, "\(String(decoding: made.body, as: UTF8.self))")
                let items = try await Self.batch(alice, "listItems", key: "i1", [
                    Self.item("c2", list: "list-a", movie: 6, position: "V"), Self.item("c3", list: "list-a", movie: 7, position: "k"),
                    Self.item("c4", list: "list-a", movie: 424242, position: "z"),
                ])
                let outcomes = (items.json?["results"] as? [[String: Any]])?.compactMap { $0["outcome"] as? String }
                #expect(outcomes == ["applied", "applied", "unknownMovie"])
                let listed = try await alice.client.get("/api/listItems", headers: [("Authorization", "Bearer \(alice.token)")])
                #expect(Set(((listed.json?["entries"] as? [[String: Any]]) ?? []).compactMap { $0["title"] as? String }) == ["Deadpool", "Zootopia"])

                let bad: [(String, String, String)] = [
                    ("lists", #"{"id":"b1","key":"l","value":{"name":"","description":""},"changedAt":"2026-01-01T10:00:00Z","device":"d"}"#, "cannot be empty"),
                    ("lists", #"{"id":"b2","key":"l","value":{"name":"\#(String(repeating: "n", count: 101))","description":""},"changedAt":"2026-01-01T10:00:00Z","device":"d"}"#, "at most 100 characters"),
                    ("lists", #"{"id":"b3","key":"l","value":{"name":"a\u0007b","description":""},"changedAt":"2026-01-01T10:00:00Z","device":"d"}"#, "control characters"),
                    ("listItems", Self.item("b4", list: "list-a", movie: 6, position: "V0"), "a position is"),
                    ("listItems", Self.item("b5", list: "list a", movie: 6, position: "V"), "a list item is keyed"),
                    ("listItems", #"{"id":"b6","key":"list-a","value":{"position":"V","note":""},"changedAt":"2026-01-01T10:00:00Z","device":"d"}"#, "a list item is keyed"),
                    ("lists", #"{"id":"b7","key":"l","value":{"name":"\u200b","description":""},"changedAt":"2026-01-01T10:00:00Z","device":"d"}"#, "invisible or direction-changing"),
                    ("lists", #"{"id":"b8","key":"l","value":{"name":"abc\u202Egpj.exe","description":""},"changedAt":"2026-01-01T10:00:00Z","device":"d"}"#, "U+202E"),
                    ("lists", #"{"id":"b9","key":"l","value":{"name":" \u3000 ","description":""},"changedAt":"2026-01-01T10:00:00Z","device":"d"}"#, "cannot be empty"),
                ]
                for (index, (kind, change, words)) in bad.enumerated() {
                    let answer = try await Self.batch(alice, kind, key: "bad\(index)", [change])
                    #expect(answer.status == 400 && (answer.json?["error_description"] as? String)?.contains(words) == true, "\(index): \(String(decoding: answer.body, as: UTF8.self))")
                }

                // The list is filled through storage (200 requests' worth), then the HTTP write of one more is refused.
                let owner = try await IdentityFixtures.owner("marquee-dev", in: storage)
                let filler = (0..<(ListItems.itemLimit - 3)).map { index in
                    ShelfChangeRecord(id: "f\(index)", kind: ListItems.name, key: "list-a/\(index + 1000)", value: #"{"note":"","position":"V"}"#, changedAt: 1_700_000_000_000, device: "d")
                }
                for (part, start) in stride(from: 0, to: filler.count, by: 5_000).enumerated() {
                    var write = ShelfWrite(owner: owner, account: nil, kind: ListItems.name, key: "fill\(part)", body: Data([UInt8(part % 256)]),
                                           changes: Array(filler[start..<min(start + 5_000, filler.count)]), movies: [:])
                    write.groups = Dictionary(uniqueKeysWithValues: write.changes.map { ($0.key, "list-a") })
                    write.groupLimit = ListItems.itemLimit
                    #expect(try await storage.applyShelf(write, now: Date()).status == 200)
                }
                let full = try await Self.batch(alice, "listItems", key: "over", [Self.item("o1", list: "list-a", movie: 8, position: "x"), Self.item("o2", list: "list-a", movie: 9, position: "y")])
                #expect(full.status == 400 && (full.json?["error_description"] as? String)?.contains("A list holds at most 100000 items") == true, "\(String(decoding: full.body, as: UTF8.self))")
                let last = try await Self.batch(alice, "listItems", key: "last", [Self.item("o3", list: "list-a", movie: 8, position: "x")])
                #expect(last.status == 200, "the 100,000th fits")
                let moved = try await Self.batch(alice, "listItems", key: "move", [Self.item("o4", list: "list-a", movie: 6, position: "1")])
                #expect(moved.status == 200, "moving an item of a full list adds none")
                _ = try await Self.batch(alice, "lists", key: "l2", [
                    #"{"id":"c5","key":"list-b","value":{"name":"Other","description":""},"changedAt":"2026-01-01T10:00:00Z","device":"d"}"#,
                ])
                let other = try await Self.batch(alice, "listItems", key: "other", [Self.item("o5", list: "list-b", movie: 8, position: "x")])
                #expect(other.status == 200, "another list is not full")
                #expect((other.json?["results"] as? [[String: Any]])?.first?["outcome"] as? String == "applied")
                let spread = try await Self.batch(alice, "listItems", key: "spread", (0..<21).map { Self.item("s\($0)", list: "g\($0)", movie: 6, position: "V") })
                #expect(spread.status == 400 && (spread.json?["error_description"] as? String)?.contains("at most 20 lists") == true,
                        "each list a batch adds to is counted: 21 is too many")
            } }
        }

        @Test("a movie is kept only on a list in force: on a list never made or deleted it is unknownList and nothing is kept; a removal is taken on any list; a repeat says what it was", arguments: Backend.allCases)
        func unknownList(backend: Backend) async throws {
            try await backend.withStorage { storage in try await withServerClient(auth: Watchlist.auth, storage: storage) { client in
                let alice = try await Watchlister(client, token: try await Watchlist.token(client, "marquee-dev", "marquee-dev-secret"))
                func outcomes(_ answer: ServerClient.Answer) -> [String] {
                    (answer.json?["results"] as? [[String: Any]])?.compactMap { $0["outcome"] as? String } ?? []
                }
                func listed() async throws -> [String] {
                    let answer = try await alice.client.get("/api/listItems", headers: [("Authorization", "Bearer \(alice.token)")])
                    return ((answer.json?["entries"] as? [[String: Any]]) ?? []).compactMap { $0["key"] as? String }
                }
                let ghost = try await Self.batch(alice, "listItems", key: "g1", [Self.item("c1", list: "ghost", movie: 6, position: "V")])
                #expect(ghost.status == 200 && outcomes(ghost) == ["unknownList"], "\(String(decoding: ghost.body, as: UTF8.self))")
                #expect(try await listed().isEmpty)

                _ = try await Self.batch(alice, "lists", key: "l1", [
                    #"{"id":"c2","key":"real","value":{"name":"Real","description":""},"changedAt":"2026-01-01T10:00:00Z","device":"d"}"#,
                ])
                let kept = try await Self.batch(alice, "listItems", key: "i1", [Self.item("c3", list: "real", movie: 6, position: "V")])
                #expect(outcomes(kept) == ["applied"])
                _ = try await Self.batch(alice, "lists", key: "l2", [
                    #"{"id":"c4","key":"real","value":null,"changedAt":"2026-01-01T11:00:00Z","device":"d"}"#,
                ])
                let late = try await Self.batch(alice, "listItems", key: "i2", [
                    Self.item("c5", list: "real", movie: 7, position: "k", at: "2026-01-01T12:00:00Z"),
                    #"{"id":"c6","key":"real/6","value":null,"changedAt":"2026-01-01T12:00:00Z","device":"d"}"#,
                ])
                #expect(outcomes(late) == ["unknownList", "applied"], "a movie added after the list was deleted is refused; taking one off is not")
                #expect(try await listed().isEmpty)
                let again = try await Self.batch(alice, "listItems", key: "i3", [Self.item("c5", list: "real", movie: 7, position: "k", at: "2026-01-01T12:00:00Z")])
                let result = (again.json?["results"] as? [[String: Any]])?.first
                #expect(result?["outcome"] as? String == "repeated" && result?["firstOutcome"] as? String == "unknownList")
            } }
        }

        @Test("a person keeps at most 1,000 lists, removed ones included: the 1,001st is refused whole, a change of one kept is not", arguments: Backend.allCases)
        func listCap(backend: Backend) async throws {
            try await backend.withStorage { storage in try await withServerClient(auth: Watchlist.auth, storage: storage) { client in
                let alice = try await Watchlister(client, token: try await Watchlist.token(client, "marquee-dev", "marquee-dev-secret"))
                func list(_ index: Int, name: String = "n") -> String {
                    #"{"id":"c\#(index)-\#(name)","key":"l\#(index)","value":{"name":"\#(name)","description":""},"changedAt":"2026-01-01T10:00:00Z","device":"d"}"#
                }
                for part in 0..<2 {
                    let answer = try await Self.batch(alice, "lists", key: "p\(part)", (0..<500).map { list(part * 500 + $0) })
                    #expect(answer.status == 200, "\(String(decoding: answer.body, as: UTF8.self).prefix(300))")
                }
                let over = try await Self.batch(alice, "lists", key: "over", [list(1_000)])
                #expect(over.status == 400 && (over.json?["error_description"] as? String)?.contains("An account keeps at most 1000 lists, removed ones included: this one holds 1000.") == true,
                        "\(String(decoding: over.body, as: UTF8.self))")
                let renamed = try await Self.batch(alice, "lists", key: "rename", [list(3, name: "m")])
                #expect(renamed.status == 200, "a list kept may still change")
            } }
        }
    }
}
