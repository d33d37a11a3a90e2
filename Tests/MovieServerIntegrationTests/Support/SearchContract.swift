import Foundation
import MovieContract
@testable import MovieServer
import Movies
import SearchPlanning
import Testing

/// The search contract's fixtures: its catalogue, its queries with their expected ids, and a
/// walk through every page of a search.
enum SearchContract {
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

    /// Query strings of the contract: accents, prefixes, cast names, several words, no match, query syntax.
    static let queries: [String] = [
        "query=pokemon", "query=POKÉMON", "query=pok", "query=zoot", "query=renee", "query=the",
        "query=the%20har", "query=silent%20harbor", "query=ava", "query=ava%20costa", "query=nothingmatches",
        "query=%22OR%22%20NEAR(", "query=*", "query=-", "query=part%202", "query=%C3%A6r%C3%B8", "query=ozturk",
        "query=the&year=2016", "query=the&sort=title", "query=the&sort=rating&order=asc", "query=lost&sort=released",
        "query=golden&sort=grossing&order=asc", "year=2016&sort=rating", "year=2015", "sort=title&year=2017",
        "sort=released&order=asc&year=2014", "query=re", "query=e", "query=a%20b", "query=return%20of",
    ]

    /// The rules, by brute force: each word but the last a word of the movie, the last the
    /// start of one; more words in the title first; then the sort and the id.
    static func expected(_ query: String, among movieWords: [(movie: CatalogMovie, title: [String], all: [String])] = movieWords) throws -> [Int] {
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
        let filter = try FilterContract.filter(parameters)
        let rows = movieWords.compactMap { movie, title, all -> (CatalogMovie, Int)? in
            if let year = parameters["year"].flatMap(Int.init), movie.year != year { return nil }
            guard filter.admits(year: movie.year, rating: movie.rating, details: movie.details) else { return nil }
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

    /// Each movie's title words and all its words, folded once for every query.
    static let movieWords: [(movie: CatalogMovie, title: [String], all: [String])] = SearchContract.catalog.movies.map { movie in
        let title = SearchText.titleWords(movie.name)
        return (movie, title, title + movie.cast.flatMap { SearchText.words($0.name) })
    }
}
