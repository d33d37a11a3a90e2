import Foundation
import GRDB
import MarqueeTestSupport
import Movies
import MovieStore
import Testing

/// Every stored movie and list belongs to one API: nothing stored for one is an answer for another.
@Suite("One store, many APIs")
struct APISeparationTests {
    let date = Date(timeIntervalSince1970: 1_800_000_000)
    let one = "http://one.test/api/", other = "http://other.test/api/"

    @Test("two APIs with different answers to the same query and the same movie id each read back their own")
    func keepsAPIsApart() async throws {
        let store = try makeStore()
        let oneList = [Fixtures.movie(5, name: "One's five"), Fixtures.movie(1)]
        let otherList = [Fixtures.movie(5, name: "Other's five", cast: ["Someone Else"])]
        try await store.saveList(oneList, for: ListQuery(.topRated, year: 2016), api: one, fetchedAt: date)
        try await store.saveList(otherList, for: ListQuery(.topRated, year: 2016), api: other, fetchedAt: date.addingTimeInterval(60))

        #expect(try await store.list(ListQuery(.topRated, year: 2016), api: one)?.value == oneList)
        #expect(try await store.list(ListQuery(.topRated, year: 2016), api: other)?.value == otherList)
        #expect(try await store.movie(id: 5, api: one)?.value.name == "One's five")
        #expect(try await store.movie(id: 5, api: other)?.value.cast == [MovieActor(name: "Someone Else")])
        #expect(try await store.list(ListQuery(.topRated, year: 2016), api: "http://third.test/api/") == nil)
        #expect(try await store.movie(id: 1, api: other) == nil)

        let statistics = try await store.statistics()
        #expect(statistics.apis.map(\.key) == [one, other])
        #expect(statistics.apis.map(\.movies) == [2, 1])
    }

    @Test("removing one API leaves the other whole, and drops the actors only it named")
    func removesOneAPI() async throws {
        let store = try makeStore()
        try await store.saveList([Fixtures.movie(1, cast: ["Only One"])], for: ListQuery(.topRated, year: 2016), api: one, fetchedAt: date)
        try await store.saveList([Fixtures.movie(1, cast: ["Shared Actor"])], for: ListQuery(.topRated, year: 2016), api: other, fetchedAt: date)
        #expect(try await store.removeAPI(one))
        #expect(try await store.removeAPI(one) == false)
        #expect(try await store.list(ListQuery(.topRated, year: 2016), api: one) == nil)
        #expect(try await store.list(ListQuery(.topRated, year: 2016), api: other)?.value.count == 1)
        #expect(try await store.statistics().actors == 1)
        #expect(try await store.checkIntegrity().isEmpty)
    }

    @Test("a store of schema v1 opens without error, keeps its file, and none of its rows answers for any API")
    func upgradesVersionOne() async throws {
        let fixture = try #require(Bundle.module.url(forResource: "store-v1", withExtension: "sqlite", subdirectory: "Fixtures"))
        let folder = TestFolders.temporary.appendingPathComponent("v1-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent("movies.sqlite")
        try FileManager.default.copyItem(at: fixture, to: url)
        let rowsBefore = try await DatabaseQueue(path: url.path).read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM movie") }
        #expect(rowsBefore == 2, "the fixture holds v1 rows")

        let store = try MovieStore(url: url)
        for api in ["embedded", "stub", one, ""] {
            #expect(try await store.list(ListQuery(.topGrossing, year: 2016), api: api) == nil)
            #expect(try await store.movie(id: 1, api: api) == nil)
            #expect(try await store.derivedList(ListQuery(.topGrossing, year: 2016), api: api) == nil)
        }
        #expect(try await store.statistics().apis.isEmpty)
        #expect(try await store.checkIntegrity().isEmpty)
        try await store.saveList(Fixtures.ten, for: ListQuery(.topGrossing, year: 2016), api: one, fetchedAt: date)
        #expect(try await store.list(ListQuery(.topGrossing, year: 2016), api: one)?.value == Fixtures.ten)
    }
}
