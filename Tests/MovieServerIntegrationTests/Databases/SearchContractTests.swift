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
        /// A generated catalogue with movies whose titles and casts carry accents, case and syntax.
        static let catalog: Catalog = {
            var movies = SyntheticCatalog.movies(count: 1500, seed: 11, years: 2014...2017)
            let extra: [(String, [String])] = [
                ("Pokémon: Détective Pikachu", ["Ryan Reynolds", "Justice Smith"]),
                ("POKEMON the Movie", ["Renée Zellweger"]),
                ("Zootopia", ["Ginnifer Goodwin", "Jason Bateman"]),
                ("Zoo \"OR\" NEAR(Story) - Part*2", ["Ines Costa"]),
                ("Ærø Ångström", ["Ünal Öztürk"]),
            ]
            for (offset, (name, cast)) in extra.enumerated() {
                movies.append(CatalogMovie(
                    name: name, id: 900_000 + offset, year: 2016, releaseDate: "2016-0\(offset + 1)-1\(offset)",
                    grossing: 1_000_000 * (offset + 1), rating: Double(60 + offset), cast: cast.map(CatalogMovie.Actor.init)
                ))
            }
            return try! Catalog(movies: movies, source: "search test")
        }()

        /// Each movie's title words and all its words, folded once for every query.
        static let movieWords: [(movie: CatalogMovie, title: [String], all: [String])] = catalog.movies.map { movie in
            let title = SearchText.titleWords(movie.name)
            return (movie, title, title + movie.cast.flatMap { SearchText.words($0.name) })
        }

        /// Query strings of the contract: accents, prefixes, cast names, several words, no match, query syntax.
        static let queries: [String] = [
            "query=pokemon", "query=POKÉMON", "query=pok", "query=zoot", "query=renee", "query=the",
            "query=the%20har", "query=silent%20harbor", "query=ava", "query=ava%20costa", "query=nothingmatches",
            "query=%22OR%22%20NEAR(", "query=*", "query=-", "query=part%202", "query=%C3%A6r%C3%B8", "query=ozturk",
            "query=the&year=2016", "query=the&sort=title", "query=the&sort=rating&order=asc", "query=lost&sort=released",
            "query=golden&sort=grossing&order=asc", "year=2016&sort=rating", "year=2015", "sort=title&year=2017",
            "sort=released&order=asc&year=2014", "query=re", "query=e", "query=a%20b", "query=return%20of",
        ]

        @Test("30 queries: every backend gives the ids the rules give, in their order, a page at a time", arguments: Backend.allCases)
        func sameResults(backend: Backend) async throws {
            #expect(Self.queries.count == 30)
            #expect(try Self.expected("query=the").count > 100, "a result of many pages")
            try await backend.withStorage(holding: Self.catalog) { storage in
                try await withServerClient(storage: storage) { client in
                    for query in Self.queries {
                        let walked = try await Self.walk(client, query, limit: 37)
                        let expected = try Self.expected(query)
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
            try await backend.withStorage(holding: Self.catalog, tierReading: reading) { storage in
                try await withServerClient(storage: storage) { client in
                    for query in Self.queries + ["query=return%20of%20the", "query=costa%20the%20e", "query=the%20a%20re%20s&year=2016"] {
                        let walked = try await Self.walk(client, query, limit: 7)
                        #expect(walked == (try Self.expected(query)), "\(backend) \(reading) \(query)")
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
            try await backend.withStorage(holding: Self.catalog) { storage in
                try await withServerClient(storage: storage) { client in
                    for (query, ids) in cases {
                        #expect(try await Self.walk(client, query, limit: 1) == ids, "\(backend) \(query)")
                    }
                    for (sort, order) in defaults {
                        let implicit = try await Self.walk(client, "query=the&year=2016&sort=\(sort)", limit: 50)
                        let explicit = try await Self.walk(client, "query=the&year=2016&sort=\(sort)&order=\(order)", limit: 50)
                        #expect(implicit.count > 50)
                        #expect(implicit == explicit, "\(backend): \(sort) is \(order) by default")
                    }
                }
            }
        }

        @Test("the in-memory index gives the rules' ids whether it sorts every relevance or walks every one", arguments: [0, Int.max])
        func memoryIndexBothWays(sortingLimit: Int) throws {
            let index = MemorySearchIndex(Self.catalog.movies, sortingLimit: sortingLimit)
            for query in Self.queries + ["query=the&sort=title&order=desc", "query=the&year=2016&sort=released&order=asc", "query=a", "sort=title&order=desc"] {
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
                    let hits = index.search(search).map { SearchHit(movie: Self.catalog.movie(id: $0.id)!, relevance: $0.relevance) }
                    ids += hits.prefix(search.limit).map(\.movie.id)
                    guard hits.count > search.limit, let last = hits.prefix(search.limit).last else { break }
                    search.after = search.position(of: last)
                    try #require(ids.count <= Self.catalog.movies.count)
                }
                #expect(ids == (try Self.expected(query)), "\(query), sorting limit \(sortingLimit)")
            }
        }

        @Test("bad input is a 400 with one message, never a 500", arguments: Backend.allCases)
        func badInput(backend: Backend) async throws {
            try await backend.withStorage(holding: Self.catalog) { storage in
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
                        ("/api/movies?year=0", "The year must be"),
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
            try await withServerClient(catalog: Self.catalog) { client in
                let answer = try await client.get("/api/movies?query=pokemon")
                #expect(answer.status == 200)
                let tag = try #require(answer.headers.first(name: "ETag"))
                #expect(answer.headers.first(name: "Cache-Control") == "public, max-age=60")
                let again = try await client.get("/api/movies?query=pokemon", headers: [("If-None-Match", tag)])
                #expect(again.status == 304)
            }
        }

        /// Every id of `query`, page after page; `seen` is shown every cursor the pages link to.
        static func walk(_ client: ServerClient, _ query: String, limit: Int, catalogSize: Int = catalog.movies.count, seen: (String) -> Void = { _ in }) async throws -> [Int] {
            var ids: [Int] = []
            var cursor: String?
            repeat {
                let path = "/api/movies?\(query)&limit=\(limit)" + (cursor.map { "&cursor=\($0)" } ?? "")
                let answer = try await client.get(path)
                try #require(answer.status == 200, "\(path): \(String(decoding: answer.body, as: UTF8.self))")
                let movies = try #require(answer.json?["movies"] as? [[String: Any]])
                ids += movies.compactMap { $0["id"] as? Int }
                cursor = answer.json?["next"] as? String
                if let cursor { seen(cursor) }
                try #require(ids.count <= catalogSize, "pages never end")
            } while cursor != nil
            return ids
        }

        /// The rules, by brute force: each word but the last a word of the movie, the last the
        /// start of one; more words in the title first; then the sort and the id.
        static func expected(_ query: String) throws -> [Int] {
            var parameters: [String: String] = [:]
            for pair in query.split(separator: "&") {
                let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
                parameters[parts[0]] = parts[1].removingPercentEncoding
            }
            let words = parameters["query"].map(SearchText.words) ?? []
            if parameters["query"] != nil, words.isEmpty { return [] }
            let sort = parameters["sort"].flatMap(SearchSort.init) ?? (words.isEmpty ? .grossing : .relevance)
            let ascendingByDefault: [SearchSort: Bool] = [.relevance: false, .grossing: false, .rating: false, .released: false, .title: true]
            let ascending = parameters["order"].map { $0 == "asc" } ?? ascendingByDefault[sort]!
            let rows = movieWords.compactMap { movie, title, all -> (CatalogMovie, Int)? in
                if let year = parameters["year"].flatMap(Int.init), movie.year != year { return nil }
                func has(_ list: [String], _ index: Int) -> Bool {
                    index == words.count - 1 ? list.contains { $0.hasPrefix(words[index]) } : list.contains(words[index])
                }
                guard words.indices.allSatisfy({ has(all, $0) }) else { return nil }
                let inTitle = words.indices.filter { has(title, $0) }.count
                // A title that begins with the words, in order (the last as a prefix), is one
                // higher; one that begins with them as whole words, one higher; a title that is
                // the words, one higher again.
                let begins = title.count >= words.count && words.indices.allSatisfy { index in
                    index == words.count - 1 ? title[index].hasPrefix(words[index]) : title[index] == words[index]
                }
                let beginsWithWholeWords = title.count >= words.count && Array(title.prefix(words.count)) == words
                return (movie, inTitle + (begins ? 1 : 0) + (beginsWithWholeWords ? 1 : 0) + (title == words ? 1 : 0))
            }
            func key(_ movie: CatalogMovie) -> SortKey {
                switch sort {
                case .relevance, .grossing: .integer(movie.grossing)
                case .rating: .number(movie.rating)
                case .released: .text(movie.releaseDate)
                case .title: .text(String(String.UnicodeScalarView(SearchText.folded(movie.name).unicodeScalars.prefix(100))))
                }
            }
            return rows.sorted { a, b in
                if a.1 != b.1 { return a.1 > b.1 }
                let (ka, kb) = (key(a.0), key(b.0))
                if ka != kb { return ascending ? ka < kb : kb < ka }
                return ascending ? a.0.id < b.0.id : a.0.id > b.0.id
            }.map(\.0.id)
        }
    }
}
