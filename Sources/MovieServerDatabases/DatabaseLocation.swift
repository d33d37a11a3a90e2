import Foundation
import MovieServer
import MovieServerPostgres

/// A `--database` argument, understood: a PostgreSQL URL (``PostgresLocation``) or a SQLite file
/// (`sqlite:PATH`, or a plain path, created when missing).
public enum DatabaseLocation: Sendable, Equatable, CustomStringConvertible {
    case postgres(PostgresLocation)
    case sqlite(path: String)

    /// The environment variable that names the database when no `--database` is given, so that
    /// a password in the URL is not shown to every local user by `ps`.
    public static let environmentVariable = "MARQUEE_DATABASE_URL"

    /// Reads `text`; a PostgreSQL URL as ``PostgresLocation/init(parsing:environment:)`` does.
    public init(parsing text: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws(StorageError) {
        guard !text.isEmpty else { throw .invalidLocation(text, reason: "it is empty") }
        if PostgresLocation.isPostgres(text) {
            self = .postgres(try PostgresLocation(parsing: text, environment: environment))
        } else if text.lowercased().hasPrefix("sqlite:") {
            let path = String(text.dropFirst("sqlite:".count)).replacingOccurrences(of: "//", with: "", options: .anchored)
            guard !path.isEmpty else { throw .invalidLocation(text, reason: "no file path follows 'sqlite:'") }
            self = .sqlite(path: path)
        } else if let scheme = text.range(of: "://").map({ String(text[..<$0.lowerBound]) }) {
            throw .invalidLocation(text, reason: "'\(scheme)' databases are not supported; use postgres://… or a SQLite file path")
        } else {
            self = .sqlite(path: text)
        }
    }

    /// The location with any password hidden, for logs and errors.
    public var description: String {
        switch self {
        case let .sqlite(path): "SQLite file \(path)"
        case let .postgres(location): location.description
        }
    }
}
