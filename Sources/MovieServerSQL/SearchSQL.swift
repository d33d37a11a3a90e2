import MovieContract
import MovieServer

/// The parts of a search's SQL that SQLite and PostgreSQL share: the sort column, the direction,
/// the relevance (how many query words are in `title_words`) and the keyset condition, written
/// with `placeholder(n)` for the n-th value (`?` for SQLite, `$n` for PostgreSQL).
///
/// A page after a position is a keyset condition — "after this relevance, sort value and id" —
/// never an `OFFSET`: page 1,000 reads what page 1 reads.
package struct SearchSQL {
    package let search: MovieSearch
    /// `substr`-style test that `title_words` holds a text: SQLite's `instr(a, b) > 0`, PostgreSQL's `position(b in a) > 0`.
    package let contains: (_ haystack: String, _ needle: String) -> String
    /// How a text key is compared byte by byte: `""` for SQLite (BINARY), ` COLLATE "C"` for PostgreSQL.
    package let textCollation: String
    /// How the year is named in a condition: `+movie.year` keeps SQLite from reading a year's
    /// movies through an index and asking the text index about each one.
    package var yearColumn = "movie.year"

    package init(search: MovieSearch, contains: @escaping (_ haystack: String, _ needle: String) -> String, textCollation: String, yearColumn: String = "movie.year") {
        self.search = search
        self.contains = contains
        self.textCollation = textCollation
        self.yearColumn = yearColumn
    }

    package var sortColumn: String {
        switch search.sort {
        case .relevance, .grossing: "movie.grossing"
        case .rating: "movie.rating"
        case .released: "movie.release_date" + textCollation
        case .title: "movie.title_key" + textCollation
        }
    }

    package var direction: String { search.order == .ascending ? "ASC" : "DESC" }

    /// The order: the relevance first when there are words (without, it is the same for every
    /// movie, and naming it would keep the database from reading the order off an index).
    package var orderBy: String {
        (search.words.isEmpty ? "" : "relevance DESC, ") + "\(sortColumn) \(direction), movie.id \(direction)"
    }
    private var comparison: String { search.order == .ascending ? ">" : "<" }

    /// The needles of the relevance, one per word: ` w ` for a whole word, ` w` for the last.
    package var needles: [String] {
        search.words.indices.map { SearchText.needle(search.words, $0) }
    }

    /// The values the relevance expression binds, in order: the needles, then the start of a
    /// title that begins with the words, of one that begins with them as whole words, and a title that is them (``SearchText/relevance(_:titleWords:)``).
    package var relevanceValues: [String] {
        search.words.isEmpty ? [] : needles + [SearchText.titleStart(search.words), SearchText.wholeTitle(search.words), SearchText.wholeTitle(search.words)]
    }

    /// The relevance expression; `placeholder` is asked for one value per ``relevanceValues``, in order.
    package func relevance(_ placeholder: () -> String) -> String {
        guard !search.words.isEmpty else { return "0" }
        let inTitle = needles.map { _ in "(CASE WHEN " + contains("movie.title_words", placeholder()) + " THEN 1 ELSE 0 END)" }
        let length = SearchText.titleStart(search.words).unicodeScalars.count
        let begins = "(CASE WHEN substr(movie.title_words, 1, \(length)) = \(placeholder()) THEN 1 ELSE 0 END)"
        let beginsWithWholeWords = "(CASE WHEN substr(movie.title_words, 1, \(length + 1)) = \(placeholder()) THEN 1 ELSE 0 END)"
        let whole = "(CASE WHEN movie.title_words = \(placeholder()) THEN 1 ELSE 0 END)"
        return (inTitle + [begins, beginsWithWholeWords, whole]).joined(separator: " + ")
    }

    /// The `WHERE` clause: `match` (the words' condition, given its placeholder; `nil` without
    /// words), the year and the keyset; with their values, in the order of their placeholders.
    package func whereClause(match: ((String) -> String, SearchSQLValue)?, _ placeholder: () -> String) -> (sql: String, values: [SearchSQLValue]) {
        var conditions: [String] = [], values: [SearchSQLValue] = []
        if let (condition, value) = match {
            conditions.append(condition(placeholder()))
            values.append(value)
        }
        if let year = search.year {
            conditions.append("\(yearColumn) = \(placeholder())")
            values.append(.integer(year))
        }
        let filter = filterConditions(placeholder)
        conditions += filter.conditions
        values += filter.values
        if let position = search.after {
            let (condition, bound) = after(position, placeholder)
            conditions.append(condition)
            values += bound
        }
        return (conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND "), values)
    }

    /// The filter's conditions (``MovieFilter``), with the values they bind in order. A genre is
    /// found in the stored `Drama,Sci-Fi` as `,Drama,` in `,Drama,Sci-Fi,`.
    package func filterConditions(_ placeholder: () -> String) -> (conditions: [String], values: [SearchSQLValue]) {
        let filter = search.filter
        var conditions: [String] = [], values: [SearchSQLValue] = []
        if let years = filter.years {
            conditions.append("\(yearColumn) BETWEEN \(placeholder()) AND \(placeholder())")
            values += [.integer(years.lowerBound), .integer(years.upperBound)]
        }
        if let runtime = filter.runtime {
            conditions.append("movie.runtime_minutes BETWEEN \(placeholder()) AND \(placeholder())")
            values += [.integer(runtime.lowerBound), .integer(runtime.upperBound)]
        }
        if let votes = filter.minimumVotes {
            conditions.append("movie.votes >= \(placeholder())")
            values.append(.integer(votes))
        }
        if let rating = filter.minimumRating {
            conditions.append("movie.rating >= \(placeholder())")
            values.append(.key(.number(rating)))
        }
        for genre in filter.genres {
            conditions.append(contains("(',' || movie.genres || ',')", placeholder()))
            values.append(.text("," + genre + ","))
        }
        return (conditions, values)
    }

    /// The keyset condition after `position`, with the values it binds, in the order their
    /// placeholders appear in the text (`placeholder` is called in that order too).
    package func after(_ position: SearchPosition, _ placeholder: () -> String) -> (sql: String, values: [SearchSQLValue]) {
        let needleValues = relevanceValues.map { SearchSQLValue.text($0) }
        var sql = "", values: [SearchSQLValue] = []
        if !search.words.isEmpty {
            let first = relevance(placeholder), rank = placeholder()
            let second = relevance(placeholder), sameRank = placeholder()
            sql = "((\(first)) < \(rank) OR ((\(second)) = \(sameRank) AND "
            values = needleValues + [.integer(position.relevance)] + needleValues + [.integer(position.relevance)]
        }
        let (keyset, bound) = keyset(after: position, placeholder)
        sql += keyset
        values += bound
        if !search.words.isEmpty { sql += "))" }
        return (sql, values)
    }

    /// The movies after `position` in the sort alone (a row value, which both databases read as a
    /// range of the (sort value, id) index), with the values it binds.
    package func keyset(after position: SearchPosition, _ placeholder: () -> String) -> (sql: String, values: [SearchSQLValue]) {
        let key = placeholder(), id = placeholder()
        return ("(\(sortColumn), movie.id) \(comparison) (\(key), \(id))", [.key(position.key), .integer(position.id)])
    }

    /// The order within one relevance: the sort's, then the id.
    package var sortOrder: String { "\(sortColumn) \(direction), movie.id \(direction)" }
}

/// A value a search's SQL binds.
package enum SearchSQLValue {
    case integer(Int)
    case text(String)
    case key(SortKey)
}
