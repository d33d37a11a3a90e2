import GRDB

/// The store's own clock of use: a counter that every write transaction that uses something
/// moves on by one. Eviction removes the lowest ticks first; a wall clock set wrong or moved back
/// cannot make a movie used a minute ago look older than one used last year.
enum UseClock {
    /// The next tick, taken inside the caller's write transaction.
    static func next(in db: Database) throws -> Int64 {
        guard let tick = try Int64.fetchOne(db.cachedStatement(sql: "UPDATE useClock SET tick = tick + 1 WHERE id = 1 RETURNING tick")) else {
            throw DatabaseError(resultCode: .SQLITE_ERROR, message: "the store's use clock is missing")
        }
        return tick
    }
}
