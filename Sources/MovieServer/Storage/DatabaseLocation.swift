import Foundation

/// A `--database` argument, understood: a PostgreSQL URL or a SQLite file.
///
/// - `postgres://user:password@host:port/database?sslmode=disable|prefer|require` (also
///   `postgresql://`); `?host=/folder` reaches the server through its Unix socket in that folder.
///   Any other parameter is refused. Without a password in the URL, `PGPASSWORD` or the libpq
///   password file supplies it.
/// - `sqlite:PATH`, or a plain path: a SQLite file, created when missing.
public enum DatabaseLocation: Sendable, Equatable, CustomStringConvertible {
    case postgres(PostgresLocation)
    case sqlite(path: String)

    /// Where a PostgreSQL server is and how to sign in to it.
    public struct PostgresLocation: Sendable, Equatable {
        public enum TLSMode: String, Sendable { case disable, prefer, require }

        public var host: String
        public var port: Int
        /// The folder holding the server's Unix socket, when it is reached that way.
        public var socketFolder: String?
        public var username: String
        public var password: String?
        public var database: String
        public var tls: TLSMode
    }

    /// The environment variable that names the database when no `--database` is given, so that
    /// a password in the URL is not shown to every local user by `ps`.
    public static let environmentVariable = "MARQUEE_DATABASE_URL"

    /// Reads `text`. A PostgreSQL URL without a password takes one as libpq would: from
    /// `PGPASSWORD`, else from the password file (`PGPASSFILE`, else `~/.pgpass`).
    public init(parsing text: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws(StorageError) {
        guard !text.isEmpty else { throw .invalidLocation(text, reason: "it is empty") }
        let lowered = text.lowercased()
        if lowered.hasPrefix("postgres://") || lowered.hasPrefix("postgresql://") {
            var location = try Self.postgres(text)
            if location.password == nil {
                location.password = environment["PGPASSWORD"].flatMap { $0.isEmpty ? nil : $0 }
                    ?? PostgresPasswordFile.load(environment: environment)?.password(
                        host: location.socketFolder == nil ? location.host : "localhost",
                        port: location.port, database: location.database, username: location.username
                    )
            }
            self = .postgres(location)
        } else if lowered.hasPrefix("sqlite:") {
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
        case let .sqlite(path):
            "SQLite file \(path)"
        case let .postgres(location):
            "PostgreSQL database '\(location.database)' at \(location.socketFolder ?? "\(location.host):\(location.port)") as \(location.username)"
        }
    }

    private static func postgres(_ text: String) throws(StorageError) -> PostgresLocation {
        guard let components = URLComponents(string: text) else {
            throw .invalidLocation(redacted(text), reason: "it is not a valid URL")
        }
        let items = components.queryItems ?? []
        if let unknown = items.first(where: { !["sslmode", "host"].contains($0.name) }) {
            throw .invalidLocation(redacted(text), reason: "the parameter '\(unknown.name)' is not one Marquee understands (sslmode, host)")
        }
        let query = Dictionary(items.map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { $1 })
        let socketFolder = query["host"].flatMap { $0.hasPrefix("/") ? $0 : nil }
        let namedHost = query["host"].flatMap { $0.isEmpty || $0.hasPrefix("/") ? nil : $0 }
        let host = namedHost ?? components.host.flatMap { $0.isEmpty ? nil : $0 } ?? "127.0.0.1"
        let port = components.port ?? 5432
        guard (1...65535).contains(port) else { throw .invalidLocation(redacted(text), reason: "the port must be from 1 to 65535") }
        let username = components.user.flatMap { $0.isEmpty ? nil : $0 } ?? "postgres"
        var database = components.path
        if database.hasPrefix("/") { database.removeFirst() }
        if database.isEmpty { database = username }
        guard !database.contains("/") else { throw .invalidLocation(redacted(text), reason: "the path must be one database name") }
        let mode = query["sslmode"] ?? "disable"
        guard let tls = PostgresLocation.TLSMode(rawValue: mode) else {
            throw .invalidLocation(redacted(text), reason: "sslmode must be disable, prefer or require, not '\(mode)'")
        }
        return PostgresLocation(
            host: host, port: port, socketFolder: socketFolder,
            username: components.user.map { $0.removingPercentEncoding ?? $0 } ?? username,
            password: components.password.map { $0.removingPercentEncoding ?? $0 },
            database: database.removingPercentEncoding ?? database,
            tls: tls
        )
    }

    /// `text` with the password between `:` and `@` replaced by `***`.
    static func redacted(_ text: String) -> String {
        guard let schemeEnd = text.range(of: "://"), let at = text.range(of: "@", options: .backwards),
              at.lowerBound > schemeEnd.upperBound,
              let colon = text[schemeEnd.upperBound..<at.lowerBound].firstIndex(of: ":")
        else { return text }
        return String(text[..<text.index(after: colon)]) + "***" + String(text[at.lowerBound...])
    }
}
