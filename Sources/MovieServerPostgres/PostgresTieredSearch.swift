import Logging
import MovieContract
import MovieServer
import MovieServerSQL
import PostgresNIO
import SearchPlanning

/// A search of one to three words on the PostgreSQL catalogue, a relevance at a time
/// (``SearchTiers``), in one transaction whose plans are chosen here, not by the planner.
///
/// PostgreSQL's GIN index reads a broad or prefix word's whole list before it answers (a third
/// of a million movies for "the"), so counting is not cheap there as it is in FTS5. Each relevance
/// is walked first: the first ``budget`` movies of the sort's index, each tested with `position`
/// on its words; a relevance that fills the page there is done, one that showed some movies is
/// walked on after its last one (its density says the rest is near), and one that showed none
/// is read through the GIN index of the title's words (`title_tsv`, for a relevance of one or
/// more: the title's lists are short for words that are not in the first titles) or of all the
/// words (`all_tsv`, for none), sorted. The planner is told which: it misjudges prefix words and
/// walked a million rows for "ava" in the titles, which none holds.
struct PostgresTieredSearch {
    let connection: PostgresConnection
    let search: MovieSearch
    let tiers: SearchTiers
    let logger: Logger

    /// How many movies of the sort's order a relevance is first looked for among (about 3 ms);
    /// one that showed some there is walked on for ten times as many, then read through the index.
    static let budget = 4000

    private var parts: SearchSQL { SearchSQL(search: search, contains: { "position(\($1) in \($0)) > 0" }, textCollation: #" COLLATE "C""#) }

    func ids() async throws -> [(id: Int, relevance: Int)] {
        let wanted = search.limit + 1
        var found: [(id: Int, relevance: Int)] = []
        var anyMatch: Bool?
        for relevance in tiers.relevances(wordsInSomeTitle: search.words.count) where found.count < wanted {
            let after = search.after.flatMap { $0.relevance == relevance ? $0 : nil }
            let remaining = wanted - found.count
            var budget = Self.budget
            switch tiers.strategy {
            case .bySize: break
            case let .bySizeWalkingFirst(first): budget = first
            case .sortingMatches:
                found += try await sorted(relevance: relevance, after: after, limit: remaining).map { ($0, relevance) }
                continue
            case .walkingIndex:
                found += try await walk(relevance: relevance, after: after, limit: remaining, budget: Int(Int32.max)).map { ($0, relevance) }
                continue
            }
            let first = try await firstWalk(relevance: relevance, after: after, limit: remaining, budget: budget)
            var ids = first.ids
            if first.metAMatch { anyMatch = true }
            if ids.isEmpty {
                if anyMatch == nil { anyMatch = try await matchesAny() }
                if anyMatch == false { break }
            }
            if ids.count < remaining, let last = ids.last {
                ids += try await walk(relevance: relevance, after: try await position(of: last, relevance: relevance), limit: remaining - ids.count, budget: 10 * budget)
            }
            if ids.count < remaining {
                var last = after
                if let id = ids.last { last = try await position(of: id, relevance: relevance) }
                ids += try await sorted(relevance: relevance, after: last, limit: remaining - ids.count)
            }
            found += ids.map { ($0, relevance) }
        }
        return found
    }

    /// The first walk of a relevance: its movies among the first `budget` of the sort's order
    /// after `after`, and whether any movie there has the words, whatever its relevance (the
    /// movies of the relevance come first in the answer, then at most one of another).
    private func firstWalk(relevance: Int, after: SearchPosition?, limit: Int, budget: Int) async throws -> (ids: [Int], metAMatch: Bool) {
        var query = Statement()
        let filter = matching(relevance: nil, &query)
        var needles = parts.relevanceValues.makeIterator()
        let inRelevance = "(\(parts.relevance { query.bind(.text(needles.next() ?? "")) })) = \(query.bind(.integer(relevance)))"
        var inner = "SELECT movie.id, movie.grossing, movie.rating, movie.release_date, movie.title_key, movie.title_words, movie.all_words FROM movie"
        inner += query.narrowing(parts: parts, year: search.year, after: after)
        inner += " ORDER BY \(parts.sortOrder) LIMIT \(query.bind(.integer(budget)))"
        let sql = "SELECT movie.id, \(inRelevance) FROM (\(inner)) AS movie WHERE \(filter.joined(separator: " AND "))"
            + " ORDER BY \(inRelevance) DESC, \(parts.sortOrder) LIMIT \(query.bind(.integer(limit)))"
        try await plan(walking: true, sortingWhatIsMet: true)
        var ids: [Int] = [], metAMatch = false
        for (id, inIt) in try await connection.allRows(PostgresQuery(unsafeSQL: sql, binds: query.bindings), logger: logger).decode((Int, Bool).self) {
            metAMatch = true
            if inIt { ids.append(id) }
        }
        return (ids, metAMatch)
    }

    /// The relevance's movies among the first `budget` of the sort's order after `after`, walking its index.
    private func walk(relevance: Int, after: SearchPosition?, limit: Int, budget: Int) async throws -> [Int] {
        var query = Statement()
        let filter = matching(relevance: relevance, &query)
        var inner = "SELECT movie.id, movie.grossing, movie.rating, movie.release_date, movie.title_key, movie.title_words, movie.all_words FROM movie"
        inner += query.narrowing(parts: parts, year: search.year, after: after)
        inner += " ORDER BY \(parts.sortOrder) LIMIT \(query.bind(.integer(budget)))"
        let sql = "SELECT movie.id FROM (\(inner)) AS movie WHERE \(filter.joined(separator: " AND ")) ORDER BY \(parts.sortOrder) LIMIT \(query.bind(.integer(limit)))"
        try await plan(walking: true)
        return try await query.ids(sql, connection, logger)
    }

    /// The relevance's movies through a GIN index, sorted.
    private func sorted(relevance: Int, after: SearchPosition?, limit: Int) async throws -> [Int] {
        var query = Statement()
        let indexed: String
        if tiers.isTitleStart(relevance) {
            // Titles that begin with the words, or are them: a range of the title words' B-tree index.
            indexed = tiers.titleWordsConditions(relevance)
                .map { $0.sql(#"movie.title_words COLLATE "C""#) { query.bind(.text($0)) } }
                .joined(separator: " AND ")
        } else if relevance == 0 {
            indexed = "movie.all_tsv @@ to_tsquery('simple', \(query.bind(.text(PostgresSearch.tsquery(search.words)))))"
        } else {
            indexed = "movie.title_tsv @@ to_tsquery('simple', \(query.bind(.text(tsquery(inTitleAtLeast: relevance)))))"
        }
        let filter = [indexed] + matching(relevance: relevance, &query)
        var sql = "SELECT movie.id FROM movie WHERE " + filter.joined(separator: " AND ")
        sql += query.narrowing(parts: parts, year: search.year, after: after, joining: " AND ")
        sql += " ORDER BY \(parts.sortOrder) LIMIT \(query.bind(.integer(limit)))"
        try await plan(walking: false)
        return try await query.ids(sql, connection, logger)
    }

    /// Tells the planner, for the rest of the transaction, to walk an index in order (no bitmap,
    /// no sort unless `sortingWhatIsMet`: the few rows a walk met) or to read a bitmap of a GIN
    /// index and sort it (no index walk).
    private func plan(walking: Bool, sortingWhatIsMet: Bool = false) async throws {
        let bitmap = walking ? "off" : "on", index = walking ? "on" : "off", sort = walking && !sortingWhatIsMet ? "off" : "on"
        try await connection.query("""
            SELECT set_config('enable_seqscan', 'off', true), set_config('enable_bitmapscan', \(bitmap), true),
                set_config('enable_sort', \(sort), true), set_config('enable_indexscan', \(index), true)
            """, logger: logger)
    }

    /// The conditions that a movie has every word (`position` in its words) and `relevance` of
    /// them in its title (any number with `nil`).
    private func matching(relevance: Int?, _ query: inout Statement) -> [String] {
        var conditions = parts.needles.map { "position(\(query.bind(.text($0))) in movie.all_words) > 0" }
        guard let relevance else { return conditions }
        var needles = parts.relevanceValues.makeIterator()
        let inTitle = parts.relevance { query.bind(.text(needles.next() ?? "")) }
        conditions.append("(\(inTitle)) = \(query.bind(.integer(relevance)))")
        return conditions
    }

    /// Whether any movie has all the words, through the index: asked once, when a first walk met
    /// no movie with them, so that two broad words that are never together ("the lost") are one
    /// index read, not a read for every relevance.
    private func matchesAny() async throws -> Bool {
        try await plan(walking: false)
        let query: PostgresQuery = "SELECT count(*) FROM (SELECT 1 FROM movie WHERE all_tsv @@ to_tsquery('simple', \(PostgresSearch.tsquery(search.words))) LIMIT 1) AS found"
        for count in try await connection.allRows(query, logger: logger).decode(Int.self) { return count > 0 }
        return false
    }

    /// The place of the movie `id` in the search's order.
    private func position(of id: Int, relevance: Int) async throws -> SearchPosition {
        let movies = try await PostgresCatalogQueries.movies(connection, ids: [id], logger: logger)
        guard let movie = movies[id] else { throw PostgresSearch.Vanished(id: id) }
        return SearchPosition(relevance: relevance, key: SortKey(movie, sort: search.sort, indexed: SearchText.Indexed(movie)), id: id)
    }

    /// A tsquery for at least `count` of the words in the title: `('a' & 'b':*) | ...`.
    private func tsquery(inTitleAtLeast count: Int) -> String {
        SearchTiers.choices(of: count, from: search.words.count).map { chosen in
            "(" + PostgresSearch.tsquery(chosen.map { search.words[$0] }, lastIsPrefix: chosen.last == search.words.count - 1) + ")"
        }.joined(separator: " | ")
    }

    /// A statement's text and the values its `$n` placeholders bind, in order.
    private struct Statement {
        var bindings = PostgresBindings()
        var count = 0

        mutating func bind(_ value: SearchSQLValue) -> String {
            switch value {
            case let .integer(number), let .key(.integer(number)): bindings.append(number)
            case let .text(text), let .key(.text(text)): bindings.append(text)
            case let .key(.number(number)): bindings.append(number)
            }
            count += 1
            return "$\(count)"
        }

        /// The year and the keyset after `after`, as a `WHERE` (or, `joining`, more conditions).
        mutating func narrowing(parts: SearchSQL, year: Int?, after: SearchPosition?, joining: String = " WHERE ") -> String {
            var conditions: [String] = []
            if let year { conditions.append("movie.year = \(bind(.integer(year)))") }
            if let after {
                var placeholder = count
                let (keyset, values) = parts.keyset(after: after) {
                    placeholder += 1
                    return "$\(placeholder)"
                }
                values.forEach { _ = bind($0) }
                conditions.append(keyset)
            }
            guard !conditions.isEmpty else { return "" }
            return joining + conditions.joined(separator: " AND ")
        }

        func ids(_ sql: String, _ connection: PostgresConnection, _ logger: Logger) async throws -> [Int] {
            var ids: [Int] = []
            for id in try await connection.allRows(PostgresQuery(unsafeSQL: sql, binds: bindings), logger: logger).decode(Int.self) {
                ids.append(id)
            }
            return ids
        }
    }
}
