import Foundation
import MovieContract
import MovieServer
import NIOConcurrencyHelpers

/// The reference catalog in memory, seen by the server as a database (its catalogue version is
/// asked again and again), whose health check takes `healthDelay`, and which counts how often
/// the catalogue version is asked.
final class InstrumentedStorage: ServerStorage {
    let base: MemoryStorage
    let healthDelay: Duration
    private let versionAskCount = NIOLockedValueBox(0)

    init(healthDelay: Duration = .zero) throws {
        base = MemoryStorage(catalog: try Catalog.reference())
        self.healthDelay = healthDelay
    }

    /// How many times the catalogue version was asked.
    var versionAsks: Int { versionAskCount.withLockedValue { $0 } }

    var summary: String { "instrumented memory" }
    var failures: StorageFailures { base.failures }
    func movie(id: Int) async throws(StorageError) -> CatalogMovie? { base.movie(id: id) }
    func topMovies(_ order: TopListOrder, year: Int, limit: Int) async throws(StorageError) -> [CatalogMovie] {
        base.topMovies(order, year: year, limit: limit)
    }
    func search(_ search: MovieSearch) async throws(StorageError) -> [SearchHit] { base.search(search) }
    func suggestion(for words: [String], year: Int?, latestYear: Int) async throws(StorageError) -> SuggestionWire.Answer {
        base.suggestion(for: words, year: year, latestYear: latestYear)
    }
    func catalogVersion() async throws(StorageError) -> Int64 {
        versionAskCount.withLockedValue { $0 += 1 }
        return base.catalogVersion()
    }
    func saveRefreshToken(_ token: StoredRefreshToken) async throws(StorageError) { base.saveRefreshToken(token) }
    func redeemRefreshToken(hash: [UInt8]) async throws(StorageError) -> RefreshRedemption { base.redeemRefreshToken(hash: hash) }
    func revokeRefreshToken(hash: [UInt8]) async throws(StorageError) -> StoredRefreshToken? { base.revokeRefreshToken(hash: hash) }
    func removeRefreshTokens(expiredBefore date: Date) async throws(StorageError) { base.removeRefreshTokens(expiredBefore: date) }
    func watchlistEntries(owner: String) async throws(StorageError) -> [WatchlistEntry] { base.watchlistEntries(owner: owner) }
    func watchlistRead(owner: String) async throws(StorageError) -> WatchlistRead { base.watchlistRead(owner: owner) }
    func applyWatchlist(_ write: WatchlistWrite, now: Date) async throws(StorageError) -> WatchlistAnswer { base.applyWatchlist(write, now: now) }
    func watchlistJournal(owner: String) async throws(StorageError) -> [WatchlistJournalEntry] { base.watchlistJournal(owner: owner) }
    func checkHealth() async throws(StorageError) {
        try? await Task.sleep(for: healthDelay)
        base.checkHealth()
    }
    func close() async { await base.close() }
}
