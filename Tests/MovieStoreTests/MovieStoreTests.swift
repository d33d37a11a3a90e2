import Foundation
import GRDB
import Movies
import MovieStore
import Testing

@Suite("MovieStore")
struct MovieStoreTests {
    let date = Date(timeIntervalSince1970: 1_800_000_000)

    @Test("a list is returned exactly as stored, even when other movies of that year are stored")
    func returnsTheSnapshotExactly() async throws {
        let store = try makeStore()
        try await store.saveMovies(Fixtures.ten, fetchedAt: date)
        let answer = [Fixtures.movie(7), Fixtures.movie(2), Fixtures.movie(9)]
        try await store.saveList(answer, for: .topGrossing(year: 2016), fetchedAt: date)
        #expect(try await store.list(.topGrossing(year: 2016)) == StoredValue(value: answer, fetchedAt: date))

        let next = [Fixtures.movie(4), Fixtures.movie(7)]
        try await store.saveList(next, for: .topGrossing(year: 2016), fetchedAt: date.addingTimeInterval(60))
        #expect(try await store.list(.topGrossing(year: 2016))?.value == next)
        #expect(try await store.list(.topRated(year: 2016)) == nil)
    }

    @Test("movies keep their cast in billing order, and actors are shared between movies")
    func sharesActors() async throws {
        let store = try makeStore()
        let first = Fixtures.movie(1, cast: ["B", "A", "C"])
        let second = Fixtures.movie(2, cast: ["C", "A"])
        try await store.saveList([first, second], for: .topRated(year: 2016), fetchedAt: date)
        #expect(try await store.movie(id: 1)?.value.cast.map(\.name) == ["B", "A", "C"])
        #expect(try await store.movie(id: 2)?.value.cast.map(\.name) == ["C", "A"])
        #expect(try await store.statistics().actors == 3)
    }

    @Test("an updated movie replaces the stored one everywhere it is listed")
    func updatesMovies() async throws {
        let store = try makeStore()
        try await store.saveList([Fixtures.movie(1)], for: .topRated(year: 2016), fetchedAt: date)
        let renamed = Fixtures.movie(1, name: "Renamed", cast: ["New Actor"])
        try await store.saveMovies([renamed], fetchedAt: date)
        #expect(try await store.list(.topRated(year: 2016))?.value == [renamed])
    }

    @Test("statistics count movies, actors and lists")
    func statistics() async throws {
        let store = try makeStore()
        try await store.saveList(Fixtures.ten, for: .topGrossing(year: 2016), fetchedAt: date)
        try await store.saveList(Array(Fixtures.ten.prefix(4)), for: .topRated(year: 2016), fetchedAt: date)
        let statistics = try await store.statistics()
        #expect(statistics.movies == 10)
        #expect(statistics.actors == 1)
        #expect(statistics.lists.map(\.key) == ["topGrossing/2016", "topRated/2016"])
        #expect(statistics.lists.map(\.count) == [10, 4])
        #expect(statistics.sizeInBytes > 0)
        #expect(try await store.checkIntegrity().isEmpty)
    }

    @Test("a file that is not a store is reported with its path and the way out, and left untouched")
    func reportsDamagedFiles() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("damaged-\(UUID().uuidString).sqlite")
        let garbage = Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        try garbage.write(to: url)
        #expect {
            try MovieStore(url: url)
        } throws: { error in
            guard case let .damaged(path, _) = error as? StoreError else { return false }
            return path == url.path && "\(error)".contains("marquee cache clear")
        }
        #expect(try Data(contentsOf: url) == garbage)
    }

    @Test("a store written by a newer version is refused")
    func refusesNewerStores() async throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("newer-\(UUID().uuidString)/movies.sqlite")
        _ = try MovieStore(url: url)
        try await DatabaseQueue(path: url.path).write { db in
            try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v99: from the future')")
        }
        #expect(throws: StoreError.newerVersion(path: url.path)) { try MovieStore(url: url) }
    }

    @Test("removing the files works on a damaged store")
    func removesDamagedFiles() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("remove-\(UUID().uuidString).sqlite")
        try Data("not a database".utf8).write(to: url)
        #expect(try MovieStore.removeFiles(at: url))
        #expect(!FileManager.default.fileExists(atPath: url.path))
        #expect(try MovieStore.removeFiles(at: url) == false)
    }
}
