import MovieContract

/// Why server storage could not be opened, migrated, read or written.
public enum StorageError: Error, Sendable, CustomStringConvertible {
    /// The database URL or path cannot be used; `reason` says how to write one.
    case invalidLocation(String, reason: String)
    /// The database could not be reached or opened; the first value names it ("PostgreSQL
    /// database 'movies' at 127.0.0.1:5432 as marquee", "the SQLite file /srv/movies.sqlite").
    case unreachable(String, reason: String)
    /// The file or database holds something that is not a Marquee server database.
    case foreign(String, reason: String)
    /// A migration step failed; nothing of that step was kept.
    case migrationFailed(step: String, reason: String)
    /// The connection broke or stopped answering in the middle of work; `reason` says what
    /// became of that work.
    case connectionLost(String, reason: String)
    /// A query failed while serving or importing.
    case queryFailed(String)
    /// An import that may not replace movies would have given a stored movie's id to another
    /// film; nothing was imported.
    case wouldReplaceMovies(CatalogReplacement.Conflict)

    public var description: String {
        switch self {
        case let .invalidLocation(location, reason): "cannot use the database '\(location)': \(reason)"
        case let .unreachable(location, reason): "cannot reach \(location) (\(reason))"
        case let .foreign(location, reason): "\(location) is not a Marquee server database: \(reason)"
        case let .migrationFailed(step, reason): "the database migration '\(step)' failed: \(reason)"
        case let .connectionLost(location, reason): "lost the database connection to \(location): \(reason)"
        case let .queryFailed(reason): "a database query failed: \(reason)"
        case let .wouldReplaceMovies(conflict):
            "the file gives id \(conflict.id) to \(Self.named(conflict.imported)), which the database holds as \(Self.named(conflict.stored)); nothing was imported"
        }
    }

    private static func named(_ movie: CatalogMovie) -> String {
        "'\(movie.name)' (\(movie.releaseDate))"
    }
}
