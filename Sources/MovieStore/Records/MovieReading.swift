import Foundation
import GRDB
import Movies

/// Reads movies with their casts, and list snapshots in their stored order.
enum MovieReading {
    static func movie(id: Int, in db: Database) throws -> StoredValue<Movie>? {
        guard let row = try Row.fetchOne(db, sql: "SELECT * FROM movie WHERE id = ?", arguments: [id]) else { return nil }
        let casts = try self.casts(of: [id], in: db)
        return StoredValue(value: try movie(from: row, cast: casts[id] ?? []), fetchedAt: date(row["fetchedAt"]))
    }

    static func list(_ query: ListQuery, in db: Database) throws -> StoredValue<[Movie]>? {
        guard let fetchedAt = try Double.fetchOne(db, sql: "SELECT fetchedAt FROM listSnapshot WHERE query = ?", arguments: [query.key]) else {
            return nil
        }
        let rows = try Row.fetchAll(db, sql: """
            SELECT movie.* FROM listEntry JOIN movie ON movie.id = listEntry.movieId
            WHERE listEntry.query = ? ORDER BY listEntry.position
            """, arguments: [query.key])
        let casts = try self.casts(of: rows.map { $0["id"] }, in: db)
        let movies = try rows.map { row in try movie(from: row, cast: casts[row["id"]] ?? []) }
        return StoredValue(value: movies, fetchedAt: date(fetchedAt))
    }

    private static func casts(of movieIDs: [Int], in db: Database) throws -> [Int: [MovieActor]] {
        guard !movieIDs.isEmpty else { return [:] }
        let placeholders = Array(repeating: "?", count: movieIDs.count).joined(separator: ",")
        let rows = try Row.fetchAll(db, sql: """
            SELECT castMember.movieId, actor.name FROM castMember JOIN actor ON actor.id = castMember.actorId
            WHERE castMember.movieId IN (\(placeholders)) ORDER BY castMember.movieId, castMember.position
            """, arguments: StatementArguments(movieIDs))
        return rows.reduce(into: [:]) { casts, row in
            casts[row["movieId"], default: []].append(MovieActor(name: row["name"]))
        }
    }

    private static func movie(from row: Row, cast: [MovieActor]) throws -> Movie {
        let dateText: String = row["releaseDate"]
        guard let releaseDate = CalendarDate.date(from: dateText) else {
            throw DatabaseError(resultCode: .SQLITE_CORRUPT, message: "movie \(row["id"] as Int) has release date '\(dateText)'")
        }
        return Movie(
            id: row["id"], name: row["name"], year: row["year"], releaseDate: releaseDate,
            grossing: row["grossing"], rating: row["rating"], cast: cast
        )
    }

    private static func date(_ seconds: Double) -> Date {
        Date(timeIntervalSince1970: seconds)
    }
}
