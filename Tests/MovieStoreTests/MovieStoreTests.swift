import Foundation
import GRDB
import MarqueeTestSupport
import Movies
import MovieStore
import Testing

@Suite("MovieStore")
struct MovieStoreTests {
    let date = Date(timeIntervalSince1970: 1_800_000_000)

    @Test("a list is returned exactly as stored, even when other movies of that year are stored")
    func returnsTheSnapshotExactly() async throws {
        let store = try makeStore()
        try await store.saveMovies(Fixtures.ten, api: Fixtures.api, fetchedAt: date)
        let answer = [Fixtures.movie(7), Fixtures.movie(2), Fixtures.movie(9)]
        try await store.saveList(answer, for: ListQuery(.topGrossing, year: 2016), api: Fixtures.api, fetchedAt: date)
        #expect(try await store.list(ListQuery(.topGrossing, year: 2016), api: Fixtures.api) == StoredValue(value: answer, fetchedAt: date))

        let next = [Fixtures.movie(4), Fixtures.movie(7)]
        try await store.saveList(next, for: ListQuery(.topGrossing, year: 2016), api: Fixtures.api, fetchedAt: date.addingTimeInterval(60))
        #expect(try await store.list(ListQuery(.topGrossing, year: 2016), api: Fixtures.api)?.value == next)
        #expect(try await store.list(ListQuery(.topRated, year: 2016), api: Fixtures.api) == nil)
    }

    @Test("movies keep their cast in billing order, and actors are shared between movies")
    func sharesActors() async throws {
        let store = try makeStore()
        let first = Fixtures.movie(1, cast: ["B", "A", "C"])
        let second = Fixtures.movie(2, cast: ["C", "A"])
        try await store.saveList([first, second], for: ListQuery(.topRated, year: 2016), api: Fixtures.api, fetchedAt: date)
        #expect(try await store.movie(id: 1, api: Fixtures.api)?.value.cast.map(\.name) == ["B", "A", "C"])
        #expect(try await store.movie(id: 2, api: Fixtures.api)?.value.cast.map(\.name) == ["C", "A"])
        #expect(try await store.statistics().actors == 3)
    }

    @Test("an updated movie replaces the stored one everywhere it is listed")
    func updatesMovies() async throws {
        let store = try makeStore()
        try await store.saveList([Fixtures.movie(1)], for: ListQuery(.topRated, year: 2016), api: Fixtures.api, fetchedAt: date)
        let renamed = Fixtures.movie(1, name: "Renamed", cast: ["New Actor"])
        try await store.saveMovies([renamed], api: Fixtures.api, fetchedAt: date)
        #expect(try await store.list(ListQuery(.topRated, year: 2016), api: Fixtures.api)?.value == [renamed])
    }

    @Test("statistics count movies, actors and lists")
    func statistics() async throws {
        let store = try makeStore()
        try await store.saveList(Fixtures.ten, for: ListQuery(.topGrossing, year: 2016), api: Fixtures.api, fetchedAt: date)
        try await store.saveList(Array(Fixtures.ten.prefix(4)), for: ListQuery(.topRated, year: 2016), api: Fixtures.api, fetchedAt: date)
        let statistics = try await store.statistics()
        #expect(statistics.movies == 10)
        #expect(statistics.actors == 1)
        #expect(statistics.apis.flatMap(\.lists).map(\.key) == ["topGrossing/2016", "topRated/2016"])
        #expect(statistics.apis.flatMap(\.lists).map(\.count) == [10, 4])
        #expect(statistics.sizeInBytes > 0)
        #expect(try await store.checkIntegrity().isEmpty)
    }

    @Test("a damaged store is reported with its path, and left untouched")
    func reportsDamagedFiles() async throws {
        let url = try await damagedStore()
        let before = try Data(contentsOf: url)
        #expect {
            try MovieStore(url: url)
        } throws: { error in
            guard case let .damaged(path, _) = error as? StoreError else { return false }
            return path == url.path && "\(error)".contains(url.path)
        }
        #expect(try Data(contentsOf: url) == before)
    }

    @Test("a folder, a text file and another program's database are never opened as a store, nor removed", arguments: ["folder", "text", "database"])
    func refusesWhatIsNotAStore(kind: String) async throws {
        let folder = TestFolders.temporary.appendingPathComponent("not-a-store-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent("target")
        switch kind {
        case "folder":
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            try Data("keep me".utf8).write(to: url.appendingPathComponent("inside.txt"))
        case "text":
            try Data("my notes".utf8).write(to: url)
        default:
            try await DatabaseQueue(path: url.path).write { db in
                try db.execute(sql: "CREATE TABLE bookmarks (url TEXT); INSERT INTO bookmarks VALUES ('https://example.org')")
            }
        }
        let before = try FileManager.default.subpathsOfDirectory(atPath: folder.path).sorted()
        let isNotAStore: (any Error) -> Bool = { error in
            if case let .notAStore(path, _) = error as? StoreError { path == url.path } else { false }
        }
        #expect(performing: { try MovieStore(url: url) }, throws: isNotAStore)
        #expect(performing: { try StoreFile.removeStore(at: url) }, throws: isNotAStore)
        #expect(try FileManager.default.subpathsOfDirectory(atPath: folder.path).sorted() == before, "nothing created or removed beside it")
        if kind == "text" { #expect(try Data(contentsOf: url) == Data("my notes".utf8)) }
    }

    @Test("a store written by a newer version is refused")
    func refusesNewerStores() async throws {
        let url = TestFolders.temporary.appendingPathComponent("newer-\(UUID().uuidString)/movies.sqlite")
        _ = try MovieStore(url: url)
        try await DatabaseQueue(path: url.path).write { db in
            try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v99: from the future')")
        }
        #expect(throws: StoreError.newerVersion(path: url.path)) { try MovieStore(url: url) }
    }

    @Test("a store of a newer version with tables this one does not know is refused as newer, and cache clear removes it")
    func newerStoreWithNewTables() async throws {
        let url = TestFolders.temporary.appendingPathComponent("newer-tables-\(UUID().uuidString)/movies.sqlite")
        _ = try MovieStore(url: url)
        try await DatabaseQueue(path: url.path).write { db in
            try db.execute(sql: """
                CREATE TABLE collection (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
                INSERT INTO grdb_migrations (identifier) VALUES ('v99: collections');
                """)
        }
        #expect(StoreFile.classify(url) == .store)
        #expect(throws: StoreError.newerVersion(path: url.path)) { try MovieStore(url: url) }
        #expect(try StoreFile.removeStore(at: url))
        #expect(!FileManager.default.fileExists(atPath: url.path))
    }

    @Test("another program's GRDB database with a movie table is not taken for a store")
    func otherGRDBDatabase() async throws {
        let url = TestFolders.temporary.appendingPathComponent("other-grdb-\(UUID().uuidString)/movies.sqlite")
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: movies") { db in
            try db.execute(sql: "CREATE TABLE movie (id INTEGER PRIMARY KEY, title TEXT); INSERT INTO movie (title) VALUES ('Mine')")
        }
        try migrator.migrate(DatabaseQueue(path: url.path))
        #expect(StoreFile.classify(url) == .otherDatabase)
        #expect(throws: StoreError.notAStore(path: url.path, reason: "it is another program's SQLite database")) { try MovieStore(url: url) }
        #expect(throws: StoreError.notAStore(path: url.path, reason: "it is another program's SQLite database")) { try StoreFile.removeStore(at: url) }
        #expect(try await DatabaseQueue(path: url.path).read { db in try String.fetchAll(db, sql: "SELECT title FROM movie") } == ["Mine"])
    }

    @Test("removing the files works on a damaged store")
    func removesDamagedFiles() async throws {
        let url = try await damagedStore()
        #expect(try StoreFile.removeStore(at: url))
        #expect(!FileManager.default.fileExists(atPath: url.path))
        #expect(try StoreFile.removeStore(at: url) == false)
    }

    /// A store with a list in it, then damaged on disk.
    private func damagedStore() async throws -> URL {
        let url = TestFolders.temporary.appendingPathComponent("damaged-\(UUID().uuidString)/movies.sqlite")
        do {
            let store = try MovieStore(url: url)
            try await store.saveList(Fixtures.ten, for: ListQuery(.topGrossing, year: 2016), api: Fixtures.api, fetchedAt: date)
        }
        try damageDatabase(at: url)
        return url
    }
}
