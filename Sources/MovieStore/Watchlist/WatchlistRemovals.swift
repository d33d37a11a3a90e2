import GRDB

/// The `watchlistRemoval` table: when each movie left a known watchlist, by the server's word (its
/// list's removals, a removal event of the live feed, or this machine's removal it applied).
enum WatchlistRemovals {
    /// When `movieID` last left the list of `apiID`, if known.
    static func at(_ movieID: Int, apiID: Int64, in db: Database) throws -> Int64? {
        try Int64.fetchOne(db, sql: "SELECT changedAt FROM watchlistRemoval WHERE apiId = ? AND movieId = ?", arguments: [apiID, movieID])
    }

    /// Records that `movieID` left the list at `changedAt`, unless a later removal is known.
    static func note(_ movieID: Int, at changedAt: Int64, apiID: Int64, in db: Database) throws {
        try db.execute(sql: """
            INSERT INTO watchlistRemoval (apiId, movieId, changedAt) VALUES (?, ?, ?)
            ON CONFLICT (apiId, movieId) DO UPDATE SET changedAt = max(changedAt, excluded.changedAt)
            """, arguments: [apiID, movieID, changedAt])
    }

    /// Every known removal of `apiID`, by movie.
    static func all(apiID: Int64, in db: Database) throws -> [Int: Int64] {
        let rows = try Row.fetchAll(db, sql: "SELECT movieId, changedAt FROM watchlistRemoval WHERE apiId = ?", arguments: [apiID])
        return Dictionary(rows.map { ($0["movieId"] as Int, $0["changedAt"] as Int64) }) { first, _ in first }
    }
}
