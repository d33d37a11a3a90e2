import Foundation
import MovieContract
import MovieServer
import Movies
import NetworkTestSupport
import Testing

/// Accounts, sign-ins and watchlist owners made in a storage for the identity tests.
enum IdentityFixtures {
    static let start = Date(timeIntervalSince1970: 1_800_000_000)

    /// The owner key of the account's watchlist, by its id.
    static func owner(_ name: String, in storage: some AccountStorage) async throws -> String {
        WatchlistOwner.account(id: try #require(try await storage.account(named: name)).id)
    }

    static func put(_ storage: some WatchlistStorage, owner: String, movie: Int, note: String, at changedAt: Int64) async throws {
        let change = WatchlistChangeRecord(id: UUID().uuidString, movieID: movie, action: .add, note: note, changedAt: changedAt, device: "d")
        let write = WatchlistWrite(owner: owner, key: change.id, request: "PUT", body: Data(note.utf8), changes: [change], shape: .single)
        _ = try await storage.applyWatchlist(write, now: start)
    }

    static func signIn(_ id: String, of account: StoredAccount) -> StoredSignIn {
        StoredSignIn(id: id, account: account.name, accountID: account.id, clientID: "marquee-dev", deviceName: "laptop", createdAt: start, lastUsedAt: start)
    }
}
