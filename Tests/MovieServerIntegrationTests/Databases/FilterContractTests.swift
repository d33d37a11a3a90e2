import Foundation
import MovieContract
@testable import MovieServer
import Testing

extension ServerDatabaseTests {
    /// `GET /api/movies` with filters: on every backend the ids the documented rules give, page
    /// after page, each movie once; the in-memory index agrees whether it sorts or walks; bad
    /// filters are a 400 that says what to write.
    @Suite("Filters on every backend")
    struct FilterContractTests {
        @Test("every filter, alone and together, with and without words, in every sort: the rules' ids a page at a time", arguments: Backend.allCases)
        func sameResults(backend: Backend) async throws {
            let counts = try FilterContract.queries.map { try SearchContract.expected($0, among: FilterContract.movieWords).count }
            #expect(counts.filter { $0 > 7 }.count >= 15, "most filters give several pages")
            #expect(counts.contains(0), "one gives nothing")
            #expect(counts.contains { (1...6).contains($0) }, "one gives a page")
            try await backend.withStorage(holding: FilterContract.catalog) { storage in
                try await withServerClient(storage: storage) { client in
                    for query in FilterContract.queries {
                        let walked = try await SearchContract.walk(client, query, limit: 7)
                        let expected = try SearchContract.expected(query, among: FilterContract.movieWords)
                        #expect(walked == expected, "\(backend) \(query): \(walked.count) ids, expected \(expected.count)")
                    }
                }
            }
        }

        @Test("a database's in-process index, read from the database's details, filters as the rules do", arguments: Backend.databases)
        func databaseIndex(backend: Backend) async throws {
            try await backend.withStorage(holding: FilterContract.catalog, searchIndexing: .inProcess) { storage in
                let indexed = try #require(storage as? any SearchIndexed)
                #expect(await indexed.searchIndexReady() != nil)
                try await withServerClient(storage: storage) { client in
                    for query in FilterContract.queries {
                        let walked = try await SearchContract.walk(client, query, limit: 7)
                        #expect(walked == (try SearchContract.expected(query, among: FilterContract.movieWords)), "\(backend) \(query)")
                    }
                }
                #expect(indexed.searchIndexCounts.answers > 100, "the pages came from the index, not the database's search")
            }
        }

        @Test(
            "the in-memory index filters alike whether it sorts the movies that pass, walks the order, or gives up walking and picks the first by rank",
            arguments: [(0, 50_000), (1, 50_000), (Int.max, 50_000), (0, 0), (0, 40)]
        )
        func memoryIndexBothWays(sortingLimit: Int, walkBudget: Int) throws {
            var index = MemorySearchIndex(FilterContract.catalog.movies, sortingLimit: sortingLimit)
            index.walkBudget = walkBudget
            for query in FilterContract.queries {
                var parameters: [String: String] = [:]
                for pair in query.split(separator: "&") {
                    let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
                    parameters[parts[0]] = parts[1].removingPercentEncoding
                }
                var search = MovieSearch(
                    words: parameters["query"].map(SearchText.words) ?? [], year: parameters["year"].flatMap(Int.init),
                    sort: parameters["sort"].flatMap(SearchSort.init), order: parameters["order"].map { $0 == "asc" ? .ascending : .descending },
                    limit: 7, filter: try FilterContract.filter(parameters)
                )
                search.hasQuery = parameters["query"] != nil
                var ids: [Int] = []
                while true {
                    let hits = index.search(search).map { SearchHit(movie: FilterContract.catalog.movie(id: $0.id)!, relevance: $0.relevance) }
                    ids += hits.prefix(search.limit).map(\.movie.id)
                    guard hits.count > search.limit, let last = hits.prefix(search.limit).last else { break }
                    search.after = search.position(of: last)
                    try #require(ids.count <= FilterContract.catalog.movies.count)
                }
                #expect(ids == (try SearchContract.expected(query, among: FilterContract.movieWords)), "\(query), sorting limit \(sortingLimit), walk budget \(walkBudget)")
            }
        }

        @Test("a bad filter is a 400 that says what to write; a cursor is only good for its own filter", arguments: Backend.allCases)
        func badInput(backend: Backend) async throws {
            try await backend.withStorage(holding: FilterContract.catalog) { storage in
                try await withServerClient(storage: storage) { client in
                    let first = try await client.get("/api/movies?genre=Drama&limit=5")
                    let next = try #require(first.json?["next"] as? String)
                    let cases: [(String, String)] = [
                        ("/api/movies?genre=Drma", "There is no genre 'Drma': the genres are Action, Adult"),
                        ("/api/movies?genre=Drama,", "There is no genre ''"),
                        ("/api/movies?runtime=120-80", "upside down: write the smaller end first (80-120)"),
                        ("/api/movies?runtime=-5", "The runtime '-5' is not one: give a runtime from 1 to 60000 minutes"),
                        ("/api/movies?runtime=99999999999", "The runtime '99999999999' is not one"),
                        ("/api/movies?runtime=0", "The runtime '0' is not one"),
                        ("/api/movies?runtime=80-abc", "The runtime '80-abc' is not one"),
                        ("/api/movies?year=1999-1990", "upside down"),
                        ("/api/movies?year=1990-99999", "The year '1990-99999' is not one"),
                        ("/api/movies?minVotes=-1", "The least number of votes must be a whole number"),
                        ("/api/movies?minVotes=1e3", "The least number of votes must be a whole number"),
                        ("/api/movies?minRating=101", "The least rating must be a number from 0 to 100"),
                        ("/api/movies?minRating=7.555", "The least rating must be"),
                        ("/api/movies?minRating=ten", "The least rating must be"),
                        ("/api/movies?minRating=nan", "The least rating must be"),
                        ("/api/movies?genre=Drama&genre=Comedy", "more than once"),
                        ("/api/movies?genre=Comedy&cursor=" + next, "belongs to another search"),
                        ("/api/movies?cursor=" + next, "belongs to another search"),
                    ]
                    for (path, message) in cases {
                        let answer = try await client.get(path)
                        #expect(answer.status == 400, "\(backend) \(path)")
                        let description = answer.json?["error_description"] as? String ?? ""
                        #expect(description.contains(message), "\(path): \(String(decoding: answer.body, as: UTF8.self))")
                    }
                    let again = try await client.get("/api/movies?genre=drama&limit=5&cursor=" + next)
                    #expect(again.status == 200, "the same filter, spelt in another case, is the same search")
                }
            }
        }
    }
}
