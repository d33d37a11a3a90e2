import Foundation
import MovieServer

/// Where a PostgreSQL server is and how to sign in to it, read from a
/// `postgres://user:password@host:port/database?sslmode=disable|prefer|require` URL (also
/// `postgresql://`); `?host=/folder` reaches the server through its Unix socket in that folder.
/// Any other parameter is refused. Without a password in the URL, `PGPASSWORD` or the libpq
/// password file supplies it.
public struct PostgresLocation: Sendable, Equatable, CustomStringConvertible {
    public enum TLSMode: String, Sendable { case disable, prefer, require }

    public var host: String
    public var port: Int
    /// The folder holding the server's Unix socket, when it is reached that way.
    public var socketFolder: String?
    public var username: String
    public var password: String?
    public var database: String
    public var tls: TLSMode

    public init(
        host: String, port: Int, socketFolder: String?, username: String, password: String?, database: String, tls: TLSMode
    ) {
        self.host = host
        self.port = port
        self.socketFolder = socketFolder
        self.username = username
        self.password = password
        self.database = database
        self.tls = tls
    }

    /// Whether `text` names a PostgreSQL database (its scheme), whatever else it holds.
    public static func isPostgres(_ text: String) -> Bool {
        let lowered = text.lowercased()
        return lowered.hasPrefix("postgres://") || lowered.hasPrefix("postgresql://")
    }

    /// Reads the URL `text`. Without a password, one is taken as libpq would: from `PGPASSWORD`,
    /// else from the password file (`PGPASSFILE`, else `~/.pgpass`).
    public init(parsing text: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws(StorageError) {
        self = try Self.read(text)
        if password == nil {
            password = environment["PGPASSWORD"].flatMap { $0.isEmpty ? nil : $0 }
                ?? PostgresPasswordFile.load(environment: environment)?.password(
                    host: socketFolder == nil ? host : "localhost", port: port, database: database, username: username
                )
        }
    }

    /// The location without its password, for logs and errors.
    public var description: String {
        "PostgreSQL database '\(database)' at \(socketFolder ?? "\(host):\(port)") as \(username)"
    }

    private static func read(_ text: String) throws(StorageError) -> PostgresLocation {
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
        guard let tls = TLSMode(rawValue: mode) else {
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
