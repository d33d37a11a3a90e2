import Foundation
import Logging

/// Decorates storage so that every failure is logged (with its reason, which clients never see)
/// and counted in ``ServerMetrics`` by operation, then passed on.
struct MeteredStorage: ServerStorage {
    let base: any ServerStorage
    let metrics: ServerMetrics
    let logger: Logger

    var summary: String { base.summary }
    var fixedCatalog: Catalog? { base.fixedCatalog }

    func movie(id: Int) async throws(StorageError) -> CatalogMovie? {
        try await observe("movie") { () async throws(StorageError) in try await base.movie(id: id) }
    }

    func topMovies(_ order: TopListOrder, year: Int, limit: Int) async throws(StorageError) -> [CatalogMovie] {
        try await observe("top_list") { () async throws(StorageError) in try await base.topMovies(order, year: year, limit: limit) }
    }

    func search(_ search: MovieSearch) async throws(StorageError) -> [SearchHit] {
        try await observe("search") { () async throws(StorageError) in try await base.search(search) }
    }

    func prepareSearch() {
        base.prepareSearch()
    }

    func titles(ofMovies ids: [Int]) async throws(StorageError) -> [Int: MovieTitle] {
        try await observe("titles") { () async throws(StorageError) in try await base.titles(ofMovies: ids) }
    }

    func catalogVersion() async throws(StorageError) -> Int64 {
        try await observe("catalog_version") { () async throws(StorageError) in try await base.catalogVersion() }
    }

    func saveRefreshToken(_ token: StoredRefreshToken) async throws(StorageError) {
        try await observe("save_refresh_token") { () async throws(StorageError) in try await base.saveRefreshToken(token) }
    }

    func redeemRefreshToken(hash: [UInt8]) async throws(StorageError) -> RefreshRedemption {
        try await observe("redeem_refresh_token") { () async throws(StorageError) in try await base.redeemRefreshToken(hash: hash) }
    }

    func revokeRefreshToken(hash: [UInt8]) async throws(StorageError) -> StoredRefreshToken? {
        try await observe("revoke_refresh_token") { () async throws(StorageError) in try await base.revokeRefreshToken(hash: hash) }
    }

    func removeRefreshTokens(expiredBefore date: Date) async throws(StorageError) {
        try await observe("purge_refresh_tokens") { () async throws(StorageError) in try await base.removeRefreshTokens(expiredBefore: date) }
    }

    func watchlistEntries(owner: String) async throws(StorageError) -> [WatchlistEntry] {
        try await observe("watchlist") { () async throws(StorageError) in try await base.watchlistEntries(owner: owner) }
    }

    func applyWatchlist(_ write: WatchlistWrite, now: Date) async throws(StorageError) -> WatchlistAnswer {
        try await observe("watchlist_write") { () async throws(StorageError) in try await base.applyWatchlist(write, now: now) }
    }

    func checkHealth() async throws(StorageError) {
        try await observe("health_check") { () async throws(StorageError) in try await base.checkHealth() }
    }

    func close() async {
        await base.close()
    }

    func observe<T>(_ operation: String, _ body: () async throws(StorageError) -> T) async throws(StorageError) -> T {
        do {
            return try await body()
        } catch {
            metrics.recordDatabaseError(operation: operation)
            logger.error("database \(operation) failed: \(error)")
            throw error
        }
    }
}
