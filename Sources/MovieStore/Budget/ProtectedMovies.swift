import GRDB

/// The movies eviction must keep, as (API row, movie id) pairs: those on any account's
/// watchlist of the movie's API or named by a pending change, and those a running process shows.
struct ProtectedMovies {
    private var pairs: Set<Pair> = []
    /// The stored lists a running process shows.
    private(set) var lists: Set<ListKey> = []

    struct Pair: Hashable {
        var apiID: Int64
        var movieID: Int
    }

    struct ListKey: Hashable {
        var apiID: Int64
        var query: String
    }

    /// How many movies are kept.
    var count: Int { pairs.count }

    func contains(apiID: Int64, movieID: Int) -> Bool { pairs.contains(Pair(apiID: apiID, movieID: movieID)) }

    func contains(list: ListKey) -> Bool { lists.contains(list) }

    /// Reads them in the caller's transaction, after forgetting what ended processes showed.
    static func read(in db: Database) throws -> ProtectedMovies {
        try ScreenProcesses.forgetEnded(in: db)
        var protected = ProtectedMovies()
        let apiIDs = try Row.fetchAll(db, sql: "SELECT id, key FROM api").reduce(into: [String: Int64]()) { $0[$1["key"]] = $1["id"] }
        // A watchlist's rows are keyed by its scope (the API, or one person's list of it); the
        // movies it names are the API's.
        let named = try Row.fetchAll(db, sql: """
            SELECT api.key, watchlistEntry.movieId FROM watchlistEntry JOIN api ON api.id = watchlistEntry.apiId
            UNION SELECT api.key, watchlistOutbox.movieId FROM watchlistOutbox JOIN api ON api.id = watchlistOutbox.apiId
            """)
        for row in named {
            guard let apiID = apiIDs[WatchlistScope.api(of: row[0])] else { continue }
            protected.pairs.insert(Pair(apiID: apiID, movieID: row[1]))
        }
        for row in try Row.fetchAll(db, sql: "SELECT DISTINCT apiId, movieId FROM shownMovie") {
            protected.pairs.insert(Pair(apiID: row[0], movieID: row[1]))
        }
        for row in try Row.fetchAll(db, sql: "SELECT DISTINCT apiId, query FROM shownList") {
            protected.lists.insert(ListKey(apiID: row[0], query: row[1]))
        }
        return protected
    }
}
