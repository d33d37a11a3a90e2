import Foundation
import MarqueeTestSupport
import MovieContract
import MovieServer
import MovieServerDatabases
import Testing

/// `marquee accounts list`: each account of a database with how many movies its watchlist holds.
@Suite("Accounts listed")
struct AccountsListTests {
    let marquee = MarqueeProcess()

    @Test("each account is listed by name with the movies on its watchlist, removals not counted; an empty database says how to add one")
    func listsEachAccountsWatchlistSize() async throws {
        let database = TestFolders.temporary.appendingPathComponent("marquee-accounts-\(UUID().uuidString).sqlite").path
        let empty = try await marquee.run(["accounts", "list", "--database", database])
        #expect(empty.status == 0, "\(empty.standardError)")
        #expect(empty.standardOutput == "No accounts yet: add one with 'marquee accounts add NAME', or let people sign up at /device.\n")

        let storage = try await DatabaseLocation(parsing: database).open()
        _ = try await storage.importMovies(try Catalog.reference().movies, batchSize: 100) { _ in }
        let accounts = Accounts(storage: storage, hasher: PasswordHasher(cost: 4))
        _ = try await accounts.create(name: "bob", password: "correct horse")
        _ = try await accounts.create(name: "alice", password: "correct horse")
        let alice = try #require(try await storage.account(named: "alice"))
        let time: Int64 = 1_800_000_000_000
        let changes = [3, 6, 7].map { WatchlistChangeRecord(id: "a\($0)", movieID: $0, action: .add, note: "", changedAt: time, device: "d") }
            + [WatchlistChangeRecord(id: "r7", movieID: 7, action: .remove, note: "", changedAt: time + 1, device: "d")]
        let write = WatchlistWrite(owner: WatchlistOwner.account(id: alice.id), account: alice.id, key: "k", request: "POST /api/watchlist/changes", body: [0], changes: changes, shape: .batch)
        _ = try await storage.applyWatchlist(write, now: Date())
        await storage.close()

        let listed = try await marquee.run(["accounts", "list", "--database", database])
        #expect(listed.status == 0, "\(listed.standardError)")
        let rows = listed.standardOutput.split(separator: "\n").map { $0.split(separator: "\t").map(String.init) }
        #expect(rows.map(\.first) == ["alice", "bob"])
        #expect(rows.map(\.last) == ["2 on the watchlist", "0 on the watchlist"])
    }
}
