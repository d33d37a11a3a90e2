import Foundation
import GRDB
import MarqueeTestSupport
import MovieContract
import MovieServerDatabases
@testable import MovieServer
import PostgresNIO
import ServerTestSupport
import Testing

extension ServerDatabaseTests {
    /// A database as it was before `server-v13-shelf` (a person's watchlist in it, no shelf
    /// tables): opened again, it is migrated, the watchlist is as it was, and ratings are kept.
    @Suite("The shelf after migrating a database")
    struct ShelfMigrationTests {
        @Test("a database from before the shelf keeps its watchlist and takes ratings, on SQLite and PostgreSQL", arguments: Backend.databases)
        func migrates(backend: Backend) async throws {
            let url = backend == .postgres ? try await PostgresCluster.required().makeDatabase() : nil
            let location = if let url { try DatabaseLocation(parsing: url) } else { try await backend.makeLocation() }
            let first = try await location.open(logger: quietLogger, queryTimeout: generousQueryTimeout, tierReading: .bySize, searchIndexing: .off)
            _ = try await first.importMovies(try Catalog.reference().movies, batchSize: 100) { _ in }
            let account = StoredAccount(name: "alice", passwordHash: "x", createdAt: Date())
            #expect(try await first.createAccount(account))
            let owner = WatchlistOwner.account(id: account.id)
            let pick = WatchlistChangeRecord(id: "a1", movieID: 6, action: .add, note: "Friday", changedAt: 1_790_000_000_000, device: "d")
            _ = try await first.applyWatchlist(WatchlistWrite(owner: owner, account: account.id, key: "k", request: "PUT", body: Data(), changes: [pick], shape: .single), now: Date())
            await first.close()
            try await Self.removeShelf(at: location, postgres: url)

            let storage = try await location.open(logger: quietLogger, queryTimeout: generousQueryTimeout, tierReading: .bySize, searchIndexing: .off)
            try await finally(try await {
                let entries = try await storage.watchlistEntries(owner: owner)
                #expect(entries.map(\.movieID) == [6] && entries.first?.note == "Friday", "\(backend)")
                let rating = ShelfChangeRecord(id: "r1", kind: Ratings.name, key: "6", value: #"{"score":8}"#, changedAt: 1_790_000_000_000, device: "d")
                let answer = try await storage.applyShelf(
                    ShelfWrite(owner: owner, account: account.id, kind: Ratings.name, key: "r", body: Data(), changes: [rating], movies: ["6": 6]), now: Date()
                )
                #expect(answer.status == 200 && answer.body.contains("applied"), "\(backend): \(answer.body)")
                #expect(try await storage.shelfRead(owner: owner, kind: Ratings.name).entries.map(\.key) == ["6"])
            }()) { await storage.close() }
        }

        /// The schema as it was before the step.
        static func removeShelf(at location: DatabaseLocation, postgres url: String?) async throws {
            if let url {
                try await PostgresCluster.required().withSession(on: url) { connection in
                    try await connection.query("DROP TABLE shelf_entry, shelf_request, shelf_change", logger: quietLogger)
                    try await connection.query("DELETE FROM marquee_schema_migration WHERE name = 'server-v13-shelf'", logger: quietLogger)
                }
                return
            }
            guard case let .sqlite(path) = location else { return }
            let queue = try DatabaseQueue(path: path)
            try await queue.write { db in
                try db.execute(sql: "DROP TABLE shelf_entry; DROP TABLE shelf_request; DROP TABLE shelf_change")
                try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier = 'server-v13-shelf'")
            }
            try queue.close()
        }
    }
}
