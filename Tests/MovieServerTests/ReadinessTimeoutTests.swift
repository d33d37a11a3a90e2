import Foundation
import MarqueeTestSupport
import MovieServer
import Testing

/// `GET /health/ready` waits for the database as long as the server is told (`--ready-timeout`).
@Suite("Readiness timeout")
struct ReadinessTimeoutTests {
    /// The reference catalog in memory, whose health check takes `delay`.
    final class SlowHealthStorage: ServerStorage {
        let base: MemoryStorage
        let delay: Duration

        init(delay: Duration) throws {
            base = MemoryStorage(catalog: try Catalog.reference())
            self.delay = delay
        }

        var summary: String { "slow health" }
        func movie(id: Int) async throws(StorageError) -> CatalogMovie? { base.movie(id: id) }
        func topMovies(_ order: TopListOrder, year: Int, limit: Int) async throws(StorageError) -> [CatalogMovie] {
            base.topMovies(order, year: year, limit: limit)
        }
        func search(_ search: MovieSearch) async throws(StorageError) -> [SearchHit] { base.search(search) }
        func catalogVersion() async throws(StorageError) -> Int64 { base.catalogVersion() }
        func saveRefreshToken(_ token: StoredRefreshToken) async throws(StorageError) { base.saveRefreshToken(token) }
        func redeemRefreshToken(hash: [UInt8]) async throws(StorageError) -> StoredRefreshToken? { base.redeemRefreshToken(hash: hash) }
        func removeRefreshTokens(expiredBefore date: Date) async throws(StorageError) { base.removeRefreshTokens(expiredBefore: date) }
        func watchlist(owner: String) async throws(StorageError) -> [WatchlistEntry] { base.watchlist(owner: owner) }
        func applyWatchlist(_ write: WatchlistWrite, now: Date) async throws(StorageError) -> WatchlistAnswer { base.applyWatchlist(write, now: now) }
        func watchlistJournal(owner: String) async throws(StorageError) -> [WatchlistJournalEntry] { base.watchlistJournal(owner: owner) }
        func checkHealth() async throws(StorageError) {
            try? await Task.sleep(for: delay)
            base.checkHealth()
        }
        func close() async { await base.close() }
    }

    @Test("a database slower than the default second is unavailable; with a longer timeout the server is ready")
    func waitsAsLongAsTold() async throws {
        let storage = try SlowHealthStorage(delay: .milliseconds(1_500))
        try await withServerClient(storage: storage) { client in
            let ready = try await client.get("/health/ready")
            #expect(ready.status == 503)
            #expect(ready.json?["status"] as? String == "database unavailable")
        }
        try await withServerClient(storage: storage, readinessTimeout: .seconds(10)) { client in
            let ready = try await client.get("/health/ready")
            #expect(ready.status == 200)
            #expect(ready.json?["status"] as? String == "ready")
        }
    }
}
