import GRDB

/// One step of eviction, in the caller's write transaction: the least recently used stored lists
/// and movies removed, oldest first, until `movies` movies are gone or nothing more may go.
///
/// A list goes whole (its snapshot and entries), and with it those of its movies used no later
/// than it that no other list holds; a movie in a list only goes with its list. A movie goes with
/// its cast and its search row, and the actors no stored cast names any more. Nothing a watchlist
/// names, nothing pending, and nothing a running process shows is removed.
struct EvictionStep {
    /// What one step removed.
    struct Outcome: Sendable, Hashable {
        var movies = 0
        var lists = 0
    }

    let movies: Int

    private struct Candidate {
        var rowID: Int64
        var apiID: Int64
        var movieID: Int
        var lastUsed: Int64
    }

    private struct ListCandidate {
        var key: ProtectedMovies.ListKey
        var lastUsed: Int64
    }

    func run(in db: Database) throws -> Outcome {
        let protected = try ProtectedMovies.read(in: db)
        let looseMovies = try Row.fetchAll(db, sql: """
            SELECT rowid, apiId, id, lastUsed FROM movie INDEXED BY movie_by_lastUsed
            WHERE NOT EXISTS (SELECT 1 FROM listEntry WHERE listEntry.apiId = movie.apiId AND listEntry.movieId = movie.id)
            ORDER BY lastUsed LIMIT ?
            """, arguments: [movies + protected.count])
            .map { Candidate(rowID: $0[0], apiID: $0[1], movieID: $0[2], lastUsed: $0[3]) }
            .filter { !protected.contains(apiID: $0.apiID, movieID: $0.movieID) }
        let lists = try Row.fetchAll(db, sql: "SELECT apiId, query, lastUsed FROM listSnapshot ORDER BY lastUsed LIMIT ?", arguments: [movies])
            .map { ListCandidate(key: .init(apiID: $0[0], query: $0[1]), lastUsed: $0[2]) }
            .filter { !protected.contains(list: $0.key) }

        var doomed: [Candidate] = []
        var outcome = Outcome()
        var nextMovie = looseMovies.startIndex, nextList = lists.startIndex
        while doomed.count < movies {
            let movie = nextMovie < looseMovies.endIndex ? looseMovies[nextMovie] : nil
            let list = nextList < lists.endIndex ? lists[nextList] : nil
            if let list, movie.map({ list.lastUsed <= $0.lastUsed }) ?? true {
                doomed += try removeList(list, protected: protected, in: db)
                outcome.lists += 1
                nextList += 1
            } else if let movie {
                doomed.append(movie)
                nextMovie += 1
            } else {
                break
            }
        }
        // No FTS5 'merge' here: the index's own automerge folds the deleted rows into its
        // segments as the next pages are written, and a merge per step cost a sixth of a budgeted walk.
        outcome.movies = try remove(doomed, in: db)
        return outcome
    }

    /// Removes the list and gives the movies that go with it.
    private func removeList(_ list: ListCandidate, protected: ProtectedMovies, in db: Database) throws -> [Candidate] {
        let members = try Row.fetchAll(db, sql: """
            SELECT movie.rowid, movie.apiId, movie.id, movie.lastUsed FROM listEntry
            JOIN movie ON movie.apiId = listEntry.apiId AND movie.id = listEntry.movieId
            WHERE listEntry.apiId = ? AND listEntry.query = ? AND movie.lastUsed <= ?
            """, arguments: [list.key.apiID, list.key.query, list.lastUsed])
            .map { Candidate(rowID: $0[0], apiID: $0[1], movieID: $0[2], lastUsed: $0[3]) }
        try db.execute(sql: "DELETE FROM listEntry WHERE apiId = ? AND query = ?", arguments: [list.key.apiID, list.key.query])
        try db.execute(sql: "DELETE FROM listSnapshot WHERE apiId = ? AND query = ?", arguments: [list.key.apiID, list.key.query])
        let inAnotherList = try db.cachedStatement(sql: "SELECT 1 FROM listEntry WHERE apiId = ? AND movieId = ? LIMIT 1")
        return try members.filter { member in
            guard !protected.contains(apiID: member.apiID, movieID: member.movieID) else { return false }
            return try Int.fetchOne(inAnotherList, arguments: [member.apiID, member.movieID]) == nil
        }
    }

    /// Removes each movie with its cast and search row, then the actors no cast names any more.
    /// The connection's foreign-key programs are off (``MovieStore``'s eviction write), so this
    /// does their work. A movie a stored list names is never a candidate (``run(in:)`` picks
    /// none); should one come, it is kept, where the constraint would have refused the whole step.
    private func remove(_ doomed: [Candidate], in db: Database) throws -> Int {
        let deleteMovie = try db.cachedStatement(sql: """
            DELETE FROM movie WHERE rowid = ? AND NOT EXISTS (SELECT 1 FROM listEntry WHERE listEntry.apiId = ? AND listEntry.movieId = ?)
            """)
        let deleteCast = try db.cachedStatement(sql: "DELETE FROM castMember WHERE apiId = ? AND movieId = ? RETURNING actorId")
        let deleteWords = try db.cachedStatement(sql: "DELETE FROM movieWords WHERE rowid = ?")
        var actors: Set<Int64> = [], seen: Set<Int64> = [], removed = 0
        for movie in doomed where seen.insert(movie.rowID).inserted {
            try deleteMovie.execute(arguments: [movie.rowID, movie.apiID, movie.movieID])
            guard db.changesCount > 0 else { continue }
            removed += 1
            actors.formUnion(try Int64.fetchAll(deleteCast, arguments: [movie.apiID, movie.movieID]))
            try deleteWords.execute(arguments: [movie.rowID])
        }
        let deleteUnnamedActor = try db.cachedStatement(sql: "DELETE FROM actor WHERE id = ? AND NOT EXISTS (SELECT 1 FROM castMember WHERE actorId = ?)")
        for actor in actors { try deleteUnnamedActor.execute(arguments: [actor, actor]) }
        return removed
    }
}
