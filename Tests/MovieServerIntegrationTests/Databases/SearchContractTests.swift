import Foundation
import MovieContract
import Movies
@testable import MovieServer
import SearchPlanning
import Testing

extension ServerDatabaseTests {
    /// `GET /api/movies`: the same ids in the same order on every backend, and the same as the
    /// documented rules computed here by brute force; every page walked gives each movie once;
    /// bad input is a 400.
    @Suite("Search on every backend")
    struct SearchContractTests {

        @Test("30 queries: every backend gives the ids the rules give, in their order, a page at a time", arguments: Backend.allCases)
        func sameResults(backend: Backend) async throws {
            #expect(SearchContract.queries.count == 30)
            #expect(try SearchContract.expected("query=the").count > 100, "a result of many pages")
            try await backend.withStorage(holding: SearchContract.catalog) { storage in
                try await withServerClient(storage: storage) { client in
                    for query in SearchContract.queries {
                        let walked = try await SearchContract.walk(client, query, limit: 37)
                        let expected = try SearchContract.expected(query)
                        #expect(walked == expected, "\(backend) \(query): \(walked.count) ids, expected \(expected.count)")
                        #expect(Set(walked).count == walked.count, "\(backend) \(query): an id twice")
                    }
                }
            }
        }

        @Test(
            "a relevance read by sorting its matches, or by walking the sort's index, gives the same pages",
            arguments: Backend.databases, [TierReading.sortingMatches, .walkingIndex, .bySizeWalkingFirst(40)]
        )
        func bothReadings(backend: Backend, reading: TierReading) async throws {
            try await backend.withStorage(holding: SearchContract.catalog, tierReading: reading) { storage in
                try await withServerClient(storage: storage) { client in
                    for query in SearchContract.queries + ["query=return%20of%20the", "query=costa%20the%20e", "query=the%20a%20re%20s&year=2016"] {
                        let walked = try await SearchContract.walk(client, query, limit: 7)
                        #expect(walked == (try SearchContract.expected(query)), "\(backend) \(reading) \(query)")
                    }
                }
            }
        }

        @Test("answers worked out by hand, and each sort's default order written out, on every backend", arguments: Backend.allCases)
        func literalAnswers(backend: Backend) async throws {
            let cases: [(String, [Int])] = [
                ("query=pokemon", [900_001, 900_000]),
                ("query=POK%C3%89MON", [900_001, 900_000]),
                ("query=pok&sort=title", [900_001, 900_000]),
                ("query=pok&sort=title&order=desc", [900_000, 900_001]),
                ("query=pokemon&sort=grossing", [900_001, 900_000]),
                ("query=pokemon&sort=grossing&order=asc", [900_000, 900_001]),
                ("query=pokemon&sort=rating", [900_001, 900_000]),
                ("query=pokemon&sort=released", [900_001, 900_000]),
                ("query=zoot", [900_002]),
                ("query=%C3%A6r%C3%B8", [900_004]),
                ("query=ozturk", [900_004]),
                ("query=renee", [900_001]),
                ("query=near%20story%20part%202", [900_003]),
                ("query=12%2013%2014%2015%2016%2017%2018%2019%2020%2021%2022%2023", []),
            ]
            let defaults = [("relevance", "desc"), ("grossing", "desc"), ("rating", "desc"), ("released", "desc"), ("title", "asc")]
            try await backend.withStorage(holding: SearchContract.catalog) { storage in
                try await withServerClient(storage: storage) { client in
                    for (query, ids) in cases {
                        #expect(try await SearchContract.walk(client, query, limit: 1) == ids, "\(backend) \(query)")
                    }
                    for (sort, order) in defaults {
                        let implicit = try await SearchContract.walk(client, "query=the&year=2016&sort=\(sort)", limit: 50)
                        let explicit = try await SearchContract.walk(client, "query=the&year=2016&sort=\(sort)&order=\(order)", limit: 50)
                        #expect(implicit.count > 50)
                        #expect(implicit == explicit, "\(backend): \(sort) is \(order) by default")
                    }
                }
            }
        }

        @Test("the in-memory index gives the rules' ids whether it sorts every relevance, walks every one, or gives up walking", arguments: [(0, 50_000), (Int.max, 50_000), (0, 0), (0, 30)])
        func memoryIndexBothWays(sortingLimit: Int, walkBudget: Int) throws {
            var index = MemorySearchIndex(SearchContract.catalog.movies, sortingLimit: sortingLimit)
            index.walkBudget = walkBudget
            for query in SearchContract.queries + ["query=the&sort=title&order=desc", "query=the&year=2016&sort=released&order=asc", "query=a", "sort=title&order=desc"] {
                var parameters: [String: String] = [:]
                for pair in query.split(separator: "&") {
                    let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
                    parameters[parts[0]] = parts[1].removingPercentEncoding
                }
                var search = MovieSearch(
                    words: parameters["query"].map(SearchText.words) ?? [], year: parameters["year"].flatMap(Int.init),
                    sort: parameters["sort"].flatMap(SearchSort.init), order: parameters["order"].map { $0 == "asc" ? .ascending : .descending }, limit: 37
                )
                search.hasQuery = parameters["query"] != nil
                var ids: [Int] = []
                while true {
                    let hits = index.search(search).map { SearchHit(movie: SearchContract.catalog.movie(id: $0.id)!, relevance: $0.relevance) }
                    ids += hits.prefix(search.limit).map(\.movie.id)
                    guard hits.count > search.limit, let last = hits.prefix(search.limit).last else { break }
                    search.after = search.position(of: last)
                    try #require(ids.count <= SearchContract.catalog.movies.count)
                }
                #expect(ids == (try SearchContract.expected(query)), "\(query), sorting limit \(sortingLimit), walk budget \(walkBudget)")
            }
        }

        @Test("bad input is a 400 with one message, never a 500", arguments: Backend.allCases)
        func badInput(backend: Backend) async throws {
            try await backend.withStorage(holding: SearchContract.catalog) { storage in
                try await withServerClient(storage: storage) { client in
                    let first = try await client.get("/api/movies?query=the&limit=5")
                    let next = try #require(first.json?["next"] as? String)
                    var edited = Array(next)
                    edited[3] = edited[3] == "A" ? "B" : "A"
                    let cases: [(String, String)] = [
                        ("/api/movies?query=", "The query is empty"),
                        ("/api/movies?query=" + String(repeating: "a", count: 1000), "longer than 200"),
                        ("/api/movies?query=" + String(repeating: "a", count: 201), "longer than 200"),
                        ("/api/movies?query=" + (1...13).map { "w\($0)" }.joined(separator: "%20"), "more than 12 words"),
                        ("/api/movies?query=the&cursor=" + String(edited), "The cursor is not one this server made"),
                        ("/api/movies?query=zoot&cursor=" + next, "belongs to another search"),
                        ("/api/movies?query=the&limit=0", "The limit must be"),
                        ("/api/movies?query=the&limit=101", "The limit must be"),
                        ("/api/movies?sort=relevance", "needs a query"),
                        ("/api/movies?colour=blue", "Unknown parameter 'colour'"),
                        ("/api/movies?query=a&query=b", "more than once"),
                        ("/api/movies?year=0", "The year '0' is not one: give a year from 1 to 9999"),
                        ("/api/movies?sort=best", "The sort must be one of"),
                        ("/api/movies?order=up", "The order must be asc or desc"),
                        ("/api/movies?cursor=garbage", "The cursor is not one this server made"),
                    ]
                    for (path, message) in cases {
                        let answer = try await client.get(path)
                        #expect(answer.status == 400, "\(backend) \(path)")
                        let description = answer.json?["error_description"] as? String ?? ""
                        #expect(description.contains(message), "\(path): \(String(decoding: answer.body, as: UTF8.self))")
                    }
                }
            }
        }

        @Test("a search answer has an ETag and a 304 for it, and the lists' Cache-Control")
        func revalidation() async throws {
            try await withServerClient(catalog: SearchContract.catalog) { client in
                let answer = try await client.get("/api/movies?query=pokemon")
                #expect(answer.status == 200)
                let tag = try #require(answer.headers.first(name: "ETag"))
                #expect(answer.headers.first(name: "Cache-Control") == "public, max-age=60")
                let again = try await client.get("/api/movies?query=pokemon", headers: [("If-None-Match", tag)])
                #expect(again.status == 304)
            }
        }

    }
}
