import Foundation
import GRDB
import MarqueeTestSupport
import Movies
import MovieStore
import Testing

/// What a store leaves on disk: each API's identity once, not in every row, and no write-ahead
/// log the size of the largest write ever made.
@Suite("Store footprint")
struct StoreFootprintTests {
    static func occurrences(of text: String, in url: URL) throws -> Int {
        let bytes = try Data(contentsOf: url), key = Data(text.utf8)
        var count = 0, searchFrom = bytes.startIndex
        while let found = bytes.range(of: key, in: searchFrom..<bytes.endIndex) {
            count += 1
            searchFrom = found.upperBound
        }
        return count
    }

    static func size(of path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? 0
    }

    @Test("an API's key is in the file twice (its row in `api` and that table's unique index), however many movies, casts and list entries it has")
    func keyStoredOnce() async throws {
        let url = TestFolders.temporary.appendingPathComponent("key-once-\(UUID().uuidString)/movies.sqlite")
        let api = "http://a-long-and-distinctive-host-name.test:8080/api/v1/"
        do {
            let store = try MovieStore(url: url)
            let movies = (1...500).map { Fixtures.movie($0, year: 2000 + $0 % 20, cast: ["A \($0 % 7)", "B \($0 % 11)", "C"]) }
            try await store.saveMovies(movies, api: api, fetchedAt: StoreContents.written)
            try await store.saveList(Array(movies.prefix(10)), for: ListQuery(.topGrossing, year: 2016), api: api, fetchedAt: StoreContents.written)
            #expect(try await store.statistics().movies == 500)
        }
        try await DatabaseQueue(path: url.path).writeWithoutTransaction { db in try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
        #expect(try Self.occurrences(of: api, in: url) == 2)
    }

    @Test("after a write larger than the log's limit, the next write cuts the log back to it")
    func logCutBack() async throws {
        let store = try makeStore()
        let movies = (1...30_000).map { Fixtures.movie($0, year: 1950 + $0 % 70, name: "A film with a long enough name, number \($0)", cast: ["A \($0 % 97)", "B \($0 % 89)", "C \($0)"]) }
        try await store.saveMovies(movies, api: Fixtures.api, fetchedAt: StoreContents.written)
        let afterLargeWrite = Self.size(of: store.url.path + "-wal")
        #expect(afterLargeWrite > 6 * 1_048_576, "the large write went through a log larger than the limit")

        try await store.saveList([Fixtures.movie(1)], for: ListQuery(.topRated, year: 2016), api: Fixtures.api, fetchedAt: StoreContents.written)
        #expect(Self.size(of: store.url.path + "-wal") <= 4 * 1_048_576)
        #expect(try await store.list(ListQuery(.topRated, year: 2016), api: Fixtures.api)?.value == [Fixtures.movie(1)])
        #expect(try await store.statistics().movies == 30_000)
    }
}
