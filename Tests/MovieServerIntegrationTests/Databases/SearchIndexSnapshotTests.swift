import Foundation
import GRDB
import MarqueeTestSupport
import NIOCore
import PostgresNIO
import ServerTestSupport
import Logging
import MovieContract
import MovieServerDatabases
import Movies
@testable import MovieServer
import SearchPlanning
import Testing

extension ServerDatabaseTests.SearchContractTests {
    /// Opens `location` with its in-process index, runs `body`, and closes it.
    private func withIndexed<Result>(
        _ location: DatabaseLocation,
        _ body: (any ServerStorage & SearchIndexed & CatalogImporting) async throws -> Result
    ) async throws -> Result {
        let opened = try await location.open(logger: quietLogger, queryTimeout: generousQueryTimeout, tierReading: .bySize, searchIndexing: .inProcess)
        let storage = try #require(opened as? any ServerStorage & SearchIndexed & CatalogImporting)
        return try await finally(try await body(storage)) { await storage.close() }
    }

    private static let probes = ["pokemon", "the", "ava costa", "zoot", "golden", "re", "finding dory"].map { MovieSearch(words: SearchText.words($0), limit: 50) }
        + SearchSort.allCases.map { MovieSearch(words: [], sort: $0, limit: 30) }

    private func answers(_ storage: any ServerStorage) async throws -> [[Int]] {
        var pages: [[Int]] = []
        for probe in Self.probes { pages.append(try await storage.search(probe).map(\.movie.id)) }
        return pages
    }

    @Test("an import stores its catalogue's index; a start without one makes it and stores it; the next start reads it and answers the same", arguments: Backend.databases)
    func snapshotAcrossStarts(backend: Backend) async throws {
        let location = try await backend.makeLocation()
        let made = try await withIndexed(location) { storage in
            _ = try await storage.importMovies(SearchContract.catalog.movies, batchSize: 1000) { _ in }
            #expect(await storage.searchIndexReady() != nil)
            #expect(storage.searchIndexCounts.snapshotReads == 1, "the import stored it")
            #expect(storage.searchIndexCounts.builds == 0)
            return try await answers(storage)
        }
        #expect(made.contains { $0.count > 3 }, "the probes find movies")
        try await SnapshotDamage.removed.apply(to: location)
        try await withIndexed(location) { storage async throws in
            _ = await storage.searchIndexReady()
            #expect(storage.searchIndexCounts.snapshotReads == 0)
            #expect(storage.searchIndexCounts.builds == 1, "made from the catalogue")
            #expect(try await answers(storage) == made)
        }
        try await withIndexed(location) { storage async throws in
            let version = await storage.searchIndexReady()
            #expect(storage.searchIndexCounts.snapshotReads == 1, "read what the start before stored")
            #expect(storage.searchIndexCounts.builds == 0)
            #expect(try await answers(storage) == made)
            #expect(storage.searchIndexCounts.answers == Self.probes.count, "the read index answered every probe")

            var renamed = try #require(SearchContract.catalog.movie(id: 900_002))
            renamed.name = "Zootopia and the Quokka"
            _ = try await storage.importMovies([renamed], batchSize: 10) { _ in }
            #expect(try await storage.search(MovieSearch(words: ["quokka"])).map(\.movie.id) == [900_002])
            let after = await storage.searchIndexReady()
            #expect(after ?? 0 > version ?? 0)
            #expect(try await storage.search(MovieSearch(words: ["quokka"])).map(\.movie.id) == [900_002])
            #expect(storage.searchIndexCounts.builds == 0, "the import stored its catalogue's index")
            #expect(storage.searchIndexCounts.snapshotReads == 2)
        }
    }

    @Test("a stored index that is not one (damaged, cut short, another format) is made again from the catalogue and replaced, and searches stay right", arguments: Backend.databases)
    func damagedSnapshot(backend: Backend) async throws {
        let location = try await backend.makeLocation()
        let made = try await withIndexed(location) { storage async throws in
            _ = try await storage.importMovies(SearchContract.catalog.movies, batchSize: 1000) { _ in }
            _ = await storage.searchIndexReady()
            return try await answers(storage)
        }
        for damage in SnapshotDamage.allCases {
            try await damage.apply(to: location)
            try await withIndexed(location) { storage async throws in
                _ = await storage.searchIndexReady()
                #expect(storage.searchIndexCounts.snapshotReads == 0, "\(damage)")
                #expect(storage.searchIndexCounts.builds == 1, "\(damage)")
                #expect(try await answers(storage) == made, "\(damage)")
            }
            try await withIndexed(location) { storage async throws in
                _ = await storage.searchIndexReady()
                #expect(storage.searchIndexCounts.snapshotReads == 1, "the damaged index was replaced by the one made: \(damage)")
                #expect(try await answers(storage) == made, "\(damage)")
            }
        }
    }
}

extension ServerDatabaseTests.SearchContractTests {
    @Test("a snapshot in several parts is read in their order; the same parts out of order are refused and replaced", arguments: Backend.databases)
    func snapshotInParts(backend: Backend) async throws {
        let location = try await backend.makeLocation()
        let opened = try await location.open(logger: quietLogger, queryTimeout: generousQueryTimeout, tierReading: .bySize, searchIndexing: .inProcess)
        _ = try await opened.importMovies(SearchContract.catalog.movies, batchSize: 1000) { _ in }
        let probe = MovieSearch(words: ["the"], limit: 40)
        let made = try await opened.search(probe).map(\.movie.id)
        await opened.close()
        let whole = try await SnapshotParts.stored(at: location)
        for outOfOrder in [false, true] {
            try await SnapshotParts.write(whole, at: location, in: 3, outOfOrder: outOfOrder)
            let reopened = try await location.open(logger: quietLogger, queryTimeout: generousQueryTimeout, tierReading: .bySize, searchIndexing: .inProcess)
            let indexed = try #require(reopened as? any SearchIndexed)
            _ = await indexed.searchIndexReady()
            #expect(indexed.searchIndexCounts.snapshotReads == (outOfOrder ? 0 : 1), "out of order: \(outOfOrder)")
            #expect(indexed.searchIndexCounts.builds == (outOfOrder ? 1 : 0), "out of order: \(outOfOrder)")
            let found = try await finally(try await reopened.search(probe).map(\.movie.id)) { await reopened.close() }
            #expect(found == made)
        }
    }
}

/// The stored snapshot rewritten by hand as several parts, as a large catalogue's is stored.
enum SnapshotParts {
    /// Replaces the stored snapshot by `whole` in `count` parts, numbered in order or with their
    /// data in reverse order.
    static func write(_ whole: (version: Int64, data: Data), at location: DatabaseLocation, in count: Int, outOfOrder: Bool) async throws {
        let size = (whole.data.count + count - 1) / count
        let inOrder = stride(from: 0, to: whole.data.count, by: size).map { whole.data.subdata(in: $0..<min(whole.data.count, $0 + size)) }
        let pieces = outOfOrder ? Array(inOrder.reversed()) : inOrder
        switch location {
        case let .sqlite(path):
            try await DatabaseQueue(path: path).write { db in
                try db.execute(sql: "DELETE FROM search_index_snapshot")
                for (part, data) in pieces.enumerated() {
                    try db.execute(sql: "INSERT INTO search_index_snapshot (version, part, parts, data) VALUES (?, ?, ?, ?)",
                                   arguments: [whole.version, part, pieces.count, data])
                }
            }
        case let .postgres(postgres):
            _ = try await PostgresCluster.required().withSession(on: "/\(postgres.database)") { connection in
                try await connection.query("DELETE FROM search_index_snapshot", logger: quietLogger)
                for (part, data) in pieces.enumerated() {
                    let bytes = ByteBuffer(bytes: data)
                    try await connection.query(
                        "INSERT INTO search_index_snapshot (version, part, parts, data) VALUES (\(whole.version), \(part), \(pieces.count), \(bytes))",
                        logger: quietLogger
                    )
                }
            }
        }
    }

    /// The stored snapshot, which must be one part.
    static func stored(at location: DatabaseLocation) async throws -> (version: Int64, data: Data) {
        switch location {
        case let .sqlite(path):
            return try await DatabaseQueue(path: path).read { db in
                let row = try #require(try Row.fetchOne(db, sql: "SELECT version, data FROM search_index_snapshot"))
                #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM search_index_snapshot") == 1)
                return (row["version"], row["data"])
            }
        case let .postgres(postgres):
            return try await PostgresCluster.required().withSession(on: "/\(postgres.database)") { connection in
                var found: [(Int64, Data)] = []
                for try await (version, data) in try await connection.query("SELECT version, data FROM search_index_snapshot", logger: quietLogger)
                    .decode((Int64, ByteBuffer).self) {
                    found.append((version, Data(data.readableBytesView)))
                }
                #expect(found.count == 1)
                return try #require(found.first)
            }
        }
    }
}

/// Ways a stored search index can be wrong, each written into the database by hand.
enum SnapshotDamage: CaseIterable, CustomStringConvertible {
    case removed, otherFormat, byteChanged, cutShort

    var description: String {
        switch self {
        case .removed: "none stored"
        case .otherFormat: "bytes of another format"
        case .byteChanged: "a byte changed deep in its arrays"
        case .cutShort: "its end cut off"
        }
    }

    /// Damages the first part of the stored snapshot of the database at `location`.
    func apply(to location: DatabaseLocation) async throws {
        switch location {
        case let .sqlite(path) where self == .removed:
            try await DatabaseQueue(path: path).write { try $0.execute(sql: "DELETE FROM search_index_snapshot") }
        case let .postgres(postgres) where self == .removed:
            _ = try await PostgresCluster.required().withSession(on: "/\(postgres.database)") { connection in
                try await connection.query("DELETE FROM search_index_snapshot", logger: quietLogger)
            }
        case let .sqlite(path):
            let queue = try DatabaseQueue(path: path)
            try await queue.write { db in
                let data = try #require(try Data.fetchOne(db, sql: "SELECT data FROM search_index_snapshot WHERE part = 0"))
                try db.execute(sql: "UPDATE search_index_snapshot SET data = ? WHERE part = 0", arguments: [damaged(data)])
            }
            try queue.close()
        case let .postgres(postgres):
            try await PostgresCluster.required().withSession(on: "/\(postgres.database)") { connection in
                var data = Data()
                for try await part in try await connection.query("SELECT data FROM search_index_snapshot WHERE part = 0", logger: quietLogger).decode(ByteBuffer.self) {
                    data = Data(part.readableBytesView)
                }
                let replacement = ByteBuffer(bytes: damaged(data))
                try await connection.query("UPDATE search_index_snapshot SET data = \(replacement) WHERE part = 0", logger: quietLogger)
            }
        }
    }

    private func damaged(_ data: Data) -> Data {
        var changed = data
        switch self {
        case .removed: changed = Data()
        case .otherFormat: changed = Data("not a search index at all".utf8)
        case .byteChanged: changed[changed.startIndex + changed.count / 2] ^= 0x01
        case .cutShort: changed = data.prefix(data.count / 2)
        }
        return changed
    }
}
