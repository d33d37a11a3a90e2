import Foundation
import MarqueeTestSupport
import MovieServerDatabases
import Movies
import MovieServer
import SearchPlanning
import ServerTestSupport
import Testing

/// The server on each kind of storage. One throwaway PostgreSQL cluster serves every suite nested
/// here; each test gets a database (or SQLite file) of its own.
@Suite("Server databases", .postgresCluster)
struct ServerDatabaseTests {}

/// A kind of server storage, made empty or holding a catalog, for one test.
enum Backend: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case memory
    case sqlite
    case postgres

    var testDescription: String { rawValue }

    static let databases: [Backend] = [.sqlite, .postgres]

    /// A new database of this kind (its location), empty.
    func makeLocation() async throws -> DatabaseLocation {
        switch self {
        case .memory:
            throw PostgresCluster.Unavailable(description: "memory storage has no location")
        case .sqlite:
            let file = TestFolders.temporary.appendingPathComponent("marquee-server-\(UUID().uuidString).sqlite")
            return .sqlite(path: file.path)
        case .postgres:
            return try DatabaseLocation(parsing: try await PostgresCluster.required().makeDatabase())
        }
    }

    /// Runs `body` with storage of this kind holding `catalog`, and closes it afterwards.
    func withStorage<Result>(
        holding catalog: Catalog? = nil,
        tierReading: TierReading = .bySize,
        searchIndexing: SearchIndexing = .off,
        _ body: (any ServerStorage & WatchlistJournaling) async throws -> Result
    ) async throws -> Result {
        let catalog = try catalog ?? Catalog.reference()
        if self == .memory { return try await body(MemoryStorage(catalog: catalog)) }
        let opened = try await makeLocation().open(logger: quietLogger, queryTimeout: generousQueryTimeout, tierReading: tierReading, searchIndexing: searchIndexing)
        let storage = try #require(opened as? any CatalogImporting & WatchlistJournaling, "every database keeps a watchlist journal")
        _ = try await storage.importMovies(catalog.movies, batchSize: 1000) { _ in }
        return try await finally(try await body(storage)) { await storage.close() }
    }
}
