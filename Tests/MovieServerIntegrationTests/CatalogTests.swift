import Foundation
import MarqueeTestSupport
import MovieContract
import MovieServer
import Testing

@Suite("Catalog")
struct CatalogTests {
    static func movie(_ id: Int, year: Int = 2020, grossing: Int = 1, rating: Double = 5) -> CatalogMovie {
        CatalogMovie(name: "Movie \(id)", id: id, year: year, releaseDate: "\(year)-01-01", grossing: grossing, rating: rating, cast: [.init(name: "Actor \(id)")])
    }

    @Test("top lists hold at most ten movies, best first, ties to the higher id")
    func ordersTopLists() throws {
        let movies = (1...15).map { Self.movie($0, grossing: $0 % 4, rating: Double($0 % 3)) } + [Self.movie(99, year: 2021)]
        let catalog = try Catalog(movies: movies)
        #expect(catalog.topGrossing(year: 2020).map(\.id) == [15, 11, 7, 3, 14, 10, 6, 2, 13, 9])
        #expect(catalog.topRated(year: 2020).map(\.id) == [14, 11, 8, 5, 2, 13, 10, 7, 4, 1])
        #expect(catalog.topGrossing(year: 2021).map(\.id) == [99])
        #expect(catalog.topRated(year: 1990).isEmpty)
    }

    @Test("a catalog file is served for any of its years, in the contract's shape")
    func servesLoadedCatalogs() async throws {
        let movies = [Self.movie(3, year: 1994, grossing: 10, rating: 8.5), Self.movie(4, year: 1994, grossing: 20, rating: 7)]
        let file = TestFolders.temporary.appendingPathComponent("catalog-\(UUID()).json")
        try JSONEncoder().encode(movies).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }

        try await withServerClient(catalog: try Catalog.load(from: file)) { client in
            let grossing = try await client.get("/api/movies/topGrossing/1994")
            #expect(String(decoding: grossing.body, as: UTF8.self) == """
                [{"name":"Movie 4","id":4,"year":1994,"releaseDate":"1994-01-01","grossing":20,"rating":7,"cast":[{"name":"Actor 4"}]},\
                {"name":"Movie 3","id":3,"year":1994,"releaseDate":"1994-01-01","grossing":10,"rating":8.5,"cast":[{"name":"Actor 3"}]}]
                """)
            let rated = try await client.get("/api/movies/topRated/1994")
            #expect(String(decoding: rated.body, as: UTF8.self).hasPrefix(#"[{"name":"Movie 3""#))
            #expect(try await client.get("/api/movies/1").status == 404)
        }
    }

    @Test("a catalog with an invalid movie names the file, index and problem")
    func rejectsInvalidMovies() {
        var bad = Self.movie(2)
        bad.releaseDate = "2020-02-30"
        #expect(throws: CatalogError.invalidMovie(file: "test", index: 1, reason: "movie 2 has releaseDate '2020-02-30', expected yyyy-MM-dd")) {
            try Catalog(movies: [Self.movie(1), bad], source: "test")
        }
    }

    @Test("entries outside the contract are refused, naming the entry and the field", arguments: [
        (#""year":2016,"releaseDate":"2017-01-01","grossing":1,"rating":50"#, "index 0: movie 7 has year 2016 but releaseDate '2017-01-01'"),
        (#""year":16,"releaseDate":"2016-01-01","grossing":1,"rating":50"#, "index 0: movie 7 has year 16 but releaseDate '2016-01-01'"),
        (#""year":2016,"releaseDate":"2016-01-01","grossing":1,"rating":-1"#, "index 0: movie 7 has rating -1.0, expected a number from 0 to 100"),
        (#""year":2016,"releaseDate":"2016-01-01","grossing":1,"rating":1e308"#, "index 0: movie 7 has rating 1e+308, expected a number from 0 to 100"),
        (#""year":2016,"releaseDate":"2016-01-01","grossing":1.5,"rating":50"#, "at $[0].grossing: 1.5 is not a whole number"),
        (#""year":2016.5,"releaseDate":"2016-01-01","grossing":1,"rating":50"#, "at $[0].year: 2016.5 is not a whole number"),
        (#""year":2016,"releaseDate":"2016-01-01","grossing":9007199254740992,"rating":50"#, "index 0: movie 7 has grossing 9007199254740992, larger than 9007199254740991"),
    ])
    func rejectsOutOfContractEntries(fields: String, message: String) {
        let json = #"[{"name":"A","id":7,"#  + fields + #","cast":[]}]"#
        let error = #expect(throws: CatalogError.self) { try Catalog.decode(Data(json.utf8), source: "movies.json") }
        #expect(error?.description.contains(message) == true, "\(error?.description ?? "")")
    }

    @Test("an id too large for the contract is named with the range, not reported as invalid JSON nor as a rounded number")
    func rejectsHugeIDs() {
        for id in ["9223372036854775807", "9007199254740992", "18446744073709551616"] {
            let json = #"[{"name":"A","id":"# + id + #","year":2016,"releaseDate":"2016-01-01","grossing":1,"rating":50,"cast":[]}]"#
            let error = #expect(throws: CatalogError.self) { try Catalog.decode(Data(json.utf8), source: "movies.json") }
            let text = error?.description ?? ""
            #expect(text.contains("index 0: id \(id) is larger than 9007199254740991") || text.contains("at $[0].id: "), "\(id): \(text)")
            #expect(!text.contains("not valid JSON"), "\(id): \(text)")
        }
        let json = #"[{"name":"A","id":18446744073709551616,"year":2016,"releaseDate":"2016-01-01","grossing":1,"rating":50,"cast":[]}]"#
        let error = #expect(throws: CatalogError.self) { try Catalog.decode(Data(json.utf8), source: "movies.json") }
        #expect(error?.description.contains("at $[0].id: a whole number from -9223372036854775808 to 9223372036854775807 is expected, not one this large") == true, "\(error?.description ?? "")")
    }

    @Test("duplicate ids are rejected")
    func rejectsDuplicateIDs() {
        #expect(throws: CatalogError.duplicateID(file: "test", id: 1)) {
            try Catalog(movies: [Self.movie(1), Self.movie(1)], source: "test")
        }
    }

    @Test("a file that is not a JSON array of movies says where it breaks")
    func rejectsMalformedFiles() {
        #expect {
            try Catalog.decode(Data(#"[{"name":"A","id":"one"}]"#.utf8), source: "movies.json")
        } throws: { error in
            guard case let .malformed(file, reason) = error as? CatalogError else { return false }
            return file == "movies.json" && reason.hasPrefix("at $[0].id")
        }
    }

    @Test("a missing file is unreadable, not a crash")
    func reportsMissingFiles() {
        #expect {
            try Catalog.load(from: URL(fileURLWithPath: "/nonexistent/catalog.json"))
        } throws: { error in
            guard case .unreadable(file: "/nonexistent/catalog.json", _) = error as? CatalogError else { return false }
            return true
        }
    }
}

@Suite("Synthetic catalog")
struct SyntheticCatalogTests {
    @Test("the same seed gives the same catalog, another seed another one")
    func isDeterministic() {
        let first = SyntheticCatalog.movies(count: 500, seed: 11)
        #expect(first == SyntheticCatalog.movies(count: 500, seed: 11))
        #expect(first != SyntheticCatalog.movies(count: 500, seed: 12))
        #expect(first.map(\.id) == Array(1...500))
    }

    @Test("a generated catalog is valid, spans many years, and is served in the contract's shape")
    func isAValidCatalog() async throws {
        let movies = SyntheticCatalog.movies(count: 2_000, seed: 3)
        let catalog = try Catalog(movies: movies, source: "synthetic")
        #expect(Set(movies.map(\.year)).count > 50)
        #expect(movies.allSatisfy { (2...6).contains($0.cast.count) })
        let reloaded = try Catalog.decode(Data(ContractJSON.list(movies).utf8), source: "synthetic.json")
        #expect(reloaded.movies == catalog.movies)
        let year = movies[0].year
        try await withServerClient(catalog: catalog) { client in
            let answer = try await client.get("/api/movies/topGrossing/\(year)")
            #expect(answer.status == 200)
            let served = try JSONSerialization.jsonObject(with: answer.body) as? [[String: Any]] ?? []
            let expected = movies.filter { $0.year == year }
                .sorted { ($0.grossing, $0.id) > ($1.grossing, $1.id) }
                .prefix(Catalog.topListLimit)
            #expect(served.map { $0["id"] as? Int } == expected.map(\.id), "grossing descending, ties to the higher id, at most ten")
            #expect(served.first?["name"] as? String == expected.first?.name)
        }
    }
}
