import Foundation
import GRDB
import MarqueeTestSupport
import MovieContract
import MovieServer
import MovieServerDatabases
import NIOConcurrencyHelpers
import PostgresNIO
import ServerTestSupport
import Testing

extension ServerDatabaseTests {
    /// Importing catalogs: in batches, in one transaction, idempotent, and all or nothing.
    @Suite("Catalog import")
    struct CatalogImportTests {
        @Test("an import that fails in its last batch keeps nothing of the earlier ones", arguments: Backend.databases)
        func failureKeepsNothing(backend: Backend) async throws {
            let location = try await backend.makeLocation()
            let storage = try await location.open(logger: quietLogger)
            try await finally(try await {
                _ = try await storage.importMovies(try Catalog.reference().movies, batchSize: 100) { _ in }
                try await Self.refuseMovie(id: 4_999, at: location)
                let movies = SyntheticCatalog.movies(count: 5_000, seed: 3)
                let batches = BatchCounter()
                await #expect(throws: StorageError.self) {
                    try await storage.importMovies(movies, batchSize: 1000) { _ in batches.increment() }
                }
                #expect(batches.count == 4, "four batches were written before the fifth failed")
                #expect(storage.failures.byOperation["import_movies"] == 1, "counted as every database failure is")
                #expect(try await storage.catalogVersion() == 1)
                #expect(try await storage.movie(id: 11) == nil, "a movie of the first batch was rolled back")
                #expect(try await storage.movie(id: 1)?.name == (try Catalog.reference().movie(id: 1))?.name, "what was there before is kept")
            }()) { await storage.close() }
        }

        @Test("a changed movie is rewritten with its new cast; the catalog version moves only when something changed", arguments: Backend.databases)
        func changesAreDetected(backend: Backend) async throws {
            let storage = try await backend.makeLocation().open(logger: quietLogger)
            try await finally(try await {
                let reference = try Catalog.reference().movies
                #expect(try await storage.importMovies(reference, batchSize: 3) { _ in } == CatalogImportSummary(added: 10))
                #expect(try await storage.importMovies(reference, batchSize: 3) { _ in } == CatalogImportSummary(unchanged: 10))
                #expect(try await storage.catalogVersion() == 1)
                var changed = reference[4]
                changed.cast = [CatalogMovie.Actor(name: "Someone New")] + changed.cast.reversed()
                #expect(try await storage.importMovies([changed], batchSize: 3) { _ in } == CatalogImportSummary(changed: 1))
                #expect(try await storage.catalogVersion() == 2)
                #expect(try await storage.movie(id: changed.id) == changed)
            }()) { await storage.close() }
        }

        @Test("an import that may not replace movies refuses one giving a stored id to another film, keeping nothing; a corrected title passes", arguments: Backend.databases)
        func replacingAnotherFilmIsRefused(backend: Backend) async throws {
            let storage = try await backend.makeLocation().open(logger: quietLogger)
            try await finally(try await {
                let reference = try Catalog.reference().movies
                _ = try await storage.importMovies(reference, batchSize: 100, replacement: .refused) { _ in }
                let generated = SyntheticCatalog.movies(count: 20, seed: 4, firstID: 9)
                await #expect {
                    try await storage.importMovies(generated, batchSize: 5, replacement: .refused) { _ in }
                } throws: { error in
                    guard case let .wouldReplaceMovies(conflict)? = error as? StorageError else { return false }
                    return conflict.id == 9 && conflict.stored.name == reference[8].name && conflict.imported == generated[0]
                }
                #expect(storage.failures.byOperation["import_movies"] == nil, "a refusal is no database failure")
                #expect(try await storage.movie(id: 9) == reference[8], "the stored movie is kept")
                #expect(try await storage.movie(id: 20) == nil, "no movie of the file was kept")
                #expect(try await storage.catalogVersion() == 1)

                var corrected = reference[4]
                corrected.name = "The Jungle Book (Remastered)"
                #expect(try await storage.importMovies([corrected], batchSize: 5, replacement: .refused) { _ in } == CatalogImportSummary(changed: 1))
                let after = SyntheticCatalog.movies(count: 20, seed: 4, firstID: 11)
                #expect(try await storage.importMovies(after, batchSize: 5, replacement: .refused) { _ in } == CatalogImportSummary(added: 20))
                #expect(try await storage.importMovies(generated, batchSize: 5, replacement: .allowed) { _ in }.changed == 20, "with --replace, ids 9 and 10 and the eighteen after them are rewritten")
            }()) { await storage.close() }
        }

        /// Makes the database refuse to store the movie `id`, as a constraint violation would.
        static func refuseMovie(id: Int, at location: DatabaseLocation) async throws {
            switch location {
            case let .sqlite(path):
                let queue = try DatabaseQueue(path: path)
                try await queue.write { db in
                    try db.execute(sql: """
                        CREATE TRIGGER refuse_movie BEFORE INSERT ON movie WHEN NEW.id = \(id)
                        BEGIN SELECT RAISE(ABORT, 'refused by the test'); END
                        """)
                }
                try queue.close()
            case let .postgres(postgres):
                let url = try PostgresCluster.required().url(database: postgres.database)
                try await PostgresCluster.required().withSession(on: url) { session in
                    _ = try await session.query("ALTER TABLE movie ADD CONSTRAINT refuse_movie CHECK (id <> \(unescaped: String(id)))", logger: quietLogger)
                }
            }
        }
    }
}

/// Counts progress callbacks from any thread.
final class BatchCounter: Sendable {
    private let value = NIOLockedValueBox(0)
    func increment() { value.withLockedValue { $0 += 1 } }
    var count: Int { value.withLockedValue { $0 } }
}
