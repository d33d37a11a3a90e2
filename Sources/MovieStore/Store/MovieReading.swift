import Foundation
import GRDB
import MovieContract
import Movies

/// Reads one API's movies with their casts, and its list snapshots in their stored order.
enum MovieReading {
    static func movie(id: Int, api: String, in db: Database) throws -> StoredValue<Movie>? {
        guard let stored = try StoredMovie.fetchOne(
            db.cachedStatement(sql: "SELECT * FROM movie WHERE apiId = \(StoredAPI.idOfKey) AND id = ?"), arguments: [api, id]
        ) else { return nil }
        let casts = try self.casts(of: [id], api: api, in: db)
        return StoredValue(
            value: stored.movie(cast: casts[id] ?? []), fetchedAt: try date(stored.fetchedAt), entityTag: stored.entityTag, maxAge: maxAge(stored.maxAge)
        )
    }

    static func list(_ query: ListQuery, api: String, in db: Database) throws -> StoredValue<[Movie]>? {
        guard let snapshot = try Row.fetchOne(
            db.cachedStatement(sql: "SELECT fetchedAt, entityTag, maxAge FROM listSnapshot WHERE apiId = \(StoredAPI.idOfKey) AND query = ?"), arguments: [api, query.key]
        ) else {
            return nil
        }
        let stored = try StoredMovie.fetchAll(db.cachedStatement(sql: """
            SELECT movie.* FROM listEntry JOIN movie ON movie.apiId = listEntry.apiId AND movie.id = listEntry.movieId
            WHERE listEntry.apiId = \(StoredAPI.idOfKey) AND listEntry.query = ? ORDER BY listEntry.position
            """), arguments: [api, query.key])
        let movies = try withCasts(stored, api: api, in: db)
        return StoredValue(
            value: movies, fetchedAt: try date(snapshot["fetchedAt"]), entityTag: snapshot["entityTag"], maxAge: maxAge(snapshot["maxAge"])
        )
    }

    /// A stored max-age; a negative or non-finite one is ignored.
    static func maxAge(_ seconds: Double?) -> Duration? {
        guard let seconds, seconds.isFinite, seconds >= 0 else { return nil }
        return .seconds(min(seconds, Freshness.longestMaxAge / .seconds(1)))
    }

    static func casts(of movieIDs: [Int], api: String, in db: Database) throws -> [Int: [MovieActor]] {
        guard !movieIDs.isEmpty else { return [:] }
        let placeholders = Array(repeating: "?", count: movieIDs.count).joined(separator: ",")
        let rows = try Row.fetchAll(db.cachedStatement(sql: """
            SELECT castMember.movieId, actor.name FROM castMember JOIN actor ON actor.id = castMember.actorId
            WHERE castMember.apiId = \(StoredAPI.idOfKey) AND castMember.movieId IN (\(placeholders)) ORDER BY castMember.movieId, castMember.position
            """), arguments: StatementArguments([api]) + StatementArguments(movieIDs))
        return rows.reduce(into: [:]) { casts, row in
            casts[row["movieId"], default: []].append(MovieActor(name: row["name"]))
        }
    }

    /// The movies of `stored`, in order, each with its cast.
    static func withCasts(_ stored: [StoredMovie], api: String, in db: Database) throws -> [Movie] {
        let casts = try self.casts(of: stored.map(\.id), api: api, in: db)
        return stored.map { $0.movie(cast: casts[$0.id] ?? []) }
    }

    /// A stored time; one outside 1970...9999 is damage, not a date to compute with.
    static func date(_ seconds: Double) throws -> Date {
        guard seconds.isFinite, CalendarDate.plausibleSeconds.contains(seconds) else {
            throw DatabaseError(resultCode: .SQLITE_CORRUPT, message: "a stored fetch time (\(seconds)) is out of range")
        }
        return Date(timeIntervalSince1970: seconds)
    }
}

extension MovieReading {
    /// The list `query` would be, made from `api`'s stored movies of its year in the contract's
    /// order (ties to the higher id), at most ten; with how many movies of that year are stored
    /// and when the oldest of those shown was fetched. `nil` when no movie of the year is stored.
    static func derivedList(_ query: ListQuery, api: String, in db: Database) throws -> (StoredValue<[Movie]>, records: Int)? {
        guard let apiID = try StoredAPI.id(of: api, in: db) else { return nil }
        let ofYear = StoredMovie.filter(StoredMovie.Columns.apiId == apiID && StoredMovie.Columns.year == query.year)
        let count = try ofYear.fetchCount(db)
        guard count > 0 else { return nil }
        let column = query.list == .topGrossing ? StoredMovie.Columns.grossing : StoredMovie.Columns.rating
        let stored = try ofYear.order(column.desc, StoredMovie.Columns.id.desc).limit(MovieList.maximumCount).fetchAll(db)
        let movies = try withCasts(stored, api: api, in: db)
        let oldest = try stored.map { try date($0.fetchedAt) }.min() ?? Date(timeIntervalSince1970: 0)
        return (StoredValue(value: movies, fetchedAt: oldest), count)
    }
}
