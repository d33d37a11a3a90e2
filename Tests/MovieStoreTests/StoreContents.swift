import Foundation
import Movies
import MovieStore

/// What the schema-upgrade test stores: two APIs that answer the same query and the same movie
/// ids differently, shared actors, lists with and without entity tags, a movie asked by id with its
/// own tag, and a movie stored outside any list. `Fixtures/store-v3.sqlite` was written by this
/// through the schema v3 store; the test writes it again through the current one and compares.
enum StoreContents {
    static let apis = ["http://one.test/api/", "http://127.0.0.1:8080/api/"]
    static let queries: [ListQuery] = [ListQuery(.topGrossing, year: 2016), ListQuery(.topRated, year: 2016), ListQuery(.topGrossing, year: 2015), ListQuery(.topRated, year: 2015)]
    static let movieIDs = Array(0...13)
    static let written = Date(timeIntervalSince1970: 1_790_000_000)

    static func write(to store: MovieStore) async throws {
        let one = apis[0], two = apis[1]
        let tagged = Freshness(entityTag: "\"a1b2\"", maxAge: .seconds(60))
        try await store.saveList(Fixtures.ten, for: ListQuery(.topGrossing, year: 2016), api: one, fetchedAt: written, freshness: tagged)
        try await store.saveList(Array(Fixtures.ten.prefix(4).reversed()), for: ListQuery(.topRated, year: 2016), api: one, fetchedAt: written.addingTimeInterval(5))
        try await store.saveMovies(
            [Fixtures.movie(11, year: 2015, name: "Stored alone", cast: ["Shared Actor", "Only One"])], api: one, fetchedAt: written.addingTimeInterval(9)
        )
        try await store.saveMovies(
            [Fixtures.movie(3, name: "Asked by id", cast: ["Ünïcode Actor", "Shared Actor"])], api: one, fetchedAt: written.addingTimeInterval(12),
            freshness: Freshness(entityTag: "W/\"m3\"", maxAge: .seconds(3_600))
        )
        let twoList = [Fixtures.movie(5, name: "Other's five", cast: ["Someone Else", "Shared Actor"]), Fixtures.movie(12, year: 2015, cast: [])]
        try await store.saveList(twoList, for: ListQuery(.topGrossing, year: 2015), api: two, fetchedAt: written.addingTimeInterval(20), freshness: Freshness(maxAge: .seconds(0)))
        try await store.saveList([], for: ListQuery(.topRated, year: 2016), api: two, fetchedAt: written.addingTimeInterval(30), freshness: Freshness(entityTag: "\"empty\""))
        try await store.saveList([Fixtures.movie(1, name: "Two's one")], for: ListQuery(.topRated, year: 2015), api: two, fetchedAt: written.addingTimeInterval(40))
    }

    /// Everything the store answers for these APIs, as one comparable text.
    static func readAll(from store: MovieStore) async throws -> String {
        var lines: [String] = []
        for api in apis + ["http://never.test/api/"] {
            for query in queries {
                lines.append("\(api) list \(query.key): \(String(describing: try await store.list(query, api: api)))")
                lines.append("\(api) derived \(query.key): \(String(describing: try await store.derivedList(query, api: api)))")
            }
            for id in movieIDs {
                lines.append("\(api) movie \(id): \(String(describing: try await store.movie(id: id, api: api)))")
            }
        }
        let statistics = try await store.statistics()
        lines.append("actors \(statistics.actors), apis \(statistics.apis)")
        return lines.joined(separator: "\n")
    }
}
