import Foundation
import GRDB
import Logging
import MovieServer

/// What is at a server database path, found without changing it: a file is opened for writing
/// (which turns on WAL mode and may create a journal) only once it is known to be Marquee's.
enum SQLiteServerFile {
    /// The path may be opened and migrated: nothing is there, an empty file, an empty database,
    /// or a Marquee server database.
    case usable
    /// Why the path must be left alone.
    case refused(StorageError)

    /// Looks at `path`, following a link, and opens it read-only if it is a database.
    static func classify(_ path: String, migrations: [String]) -> SQLiteServerFile {
        var status = stat()
        guard stat(path, &status) == 0 else {
            if errno == ENOENT { return .usable }
            return .refused(.unreachable("the SQLite file \(path)", reason: String(cString: strerror(errno))))
        }
        switch status.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: return .refused(.invalidLocation(path, reason: "it is a folder; name a file, such as \(path)/marquee-server.sqlite"))
        default: return .refused(.invalidLocation(path, reason: "it is not a regular file"))
        }
        guard status.st_size > 0 else { return .usable }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            return .refused(.unreachable("the SQLite file \(path)", reason: "it cannot be read"))
        }
        let header = (try? handle.read(upToCount: 16)) ?? Data()
        try? handle.close()
        guard header == Data("SQLite format 3\u{0}".utf8) else { return .refused(.foreign(path, reason: "it is not a SQLite database")) }
        do {
            let queue = try readOnlyQueue(path)
            defer { try? queue.close() }
            let (tables, steps) = try queue.read { db in
                let tables = try String.fetchSet(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
                let steps = tables.contains("grdb_migrations") ? try String.fetchSet(db, sql: "SELECT identifier FROM grdb_migrations") : []
                return (tables, steps)
            }
            return judge(path, tables: tables, steps: steps, migrations: Set(migrations))
        } catch {
            return .refused(.foreign(path, reason: "its schema cannot be read (\(SQLiteStorage.reason(error)))"))
        }
    }

    /// Creates the file at `path`, if there is none, readable and writable by its owner only: it
    /// holds password hashes and sessions (SQLite gives its `-wal` and `-shm` files the same mode).
    /// An existing file that others may read is left as it is, with a warning.
    static func createPrivately(_ path: String, logger: Logger) throws(StorageError) {
        let descriptor = open(path, O_CREAT | O_EXCL | O_WRONLY, 0o600)
        if descriptor >= 0 {
            close(descriptor)
            return
        }
        guard errno == EEXIST else {
            throw .unreachable("the SQLite file \(path)", reason: String(cString: strerror(errno)))
        }
        var status = stat()
        if stat(path, &status) == 0, status.st_mode & 0o077 != 0 {
            logger.warning("the SQLite file \(path) may be read by other users (mode \(String(status.st_mode & 0o777, radix: 8))); it holds password hashes: run 'chmod 600 \(path)'")
        }
    }

    /// A read-only connection that leaves nothing beside the file. A plain read-only open of a
    /// database in WAL mode creates its `-wal` and `-shm` files and cannot remove them; without a
    /// `-wal` file the main file is the whole database, and SQLite reads it as immutable, with no
    /// locks and no side files.
    private static func readOnlyQueue(_ path: String) throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.readonly = true
        if !FileManager.default.fileExists(atPath: path + "-wal"),
           let queue = try? DatabaseQueue(path: URL(fileURLWithPath: path).absoluteString + "?immutable=1", configuration: configuration) {
            return queue
        }
        return try DatabaseQueue(path: path, configuration: configuration)
    }

    private static func judge(_ path: String, tables: Set<String>, steps: Set<String>, migrations: Set<String>) -> SQLiteServerFile {
        if tables.isEmpty || tables == ["grdb_migrations"] && steps.isEmpty { return .usable }
        guard tables.contains("grdb_migrations") else {
            return .refused(.foreign(path, reason: "it holds other tables (\(tables.sorted().prefix(3).joined(separator: ", "))) and no Marquee schema"))
        }
        guard tables.contains("movie"), !steps.isDisjoint(with: migrations) else {
            return .refused(.foreign(path, reason: "it is another program's database, or a Marquee client store"))
        }
        guard steps.isSubset(of: migrations) else {
            return .refused(.foreign(path, reason: "its schema was written by a newer Marquee"))
        }
        return .usable
    }
}
