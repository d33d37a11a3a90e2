import Foundation
import GRDB

/// What is at a store path, found without changing it: whether it may be deleted as a store.
public enum StoreFile: Sendable, Hashable {
    /// Nothing is there.
    case missing
    /// An empty regular file, or a database without tables: a store not made yet.
    case empty
    /// A SQLite database with the store's tables.
    case store
    /// A file that starts as a SQLite database but whose schema cannot be read.
    case damagedDatabase
    /// A folder, a link, a device: not a regular file.
    case notARegularFile
    /// A readable SQLite database of some other program.
    case otherDatabase
    /// A regular file that is not a SQLite database at all.
    case otherFile

    /// Looks at `url` without following a link, opening it read-only if it is a database.
    public static func classify(_ url: URL) -> StoreFile {
        var status = stat()
        guard lstat(url.path, &status) == 0 else { return errno == ENOENT || errno == ENOTDIR ? .missing : .notARegularFile }
        guard status.st_mode & S_IFMT == S_IFREG else { return .notARegularFile }
        guard status.st_size > 0 else { return .empty }
        guard let handle = FileHandle(forReadingAtPath: url.path) else { return .otherFile }
        let header = (try? handle.read(upToCount: 16)) ?? Data()
        try? handle.close()
        guard header == Data("SQLite format 3\u{0}".utf8) else { return .otherFile }
        var configuration = Configuration()
        configuration.readonly = true
        do {
            let queue = try DatabaseQueue(path: url.path, configuration: configuration)
            let tables = try queue.read { db in try String.fetchSet(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'") }
            try queue.close()
            let own = tables.filter { !$0.hasPrefix("sqlite_") }
            if own.isEmpty { return .empty }
            return isStoreSchema(own) ? .store : .otherDatabase
        } catch {
            return .damagedDatabase
        }
    }

    /// Why a store must not be opened or deleted here, or `nil` when it may.
    public var refusal: String? {
        switch self {
        case .missing, .empty, .store, .damagedDatabase: nil
        case .notARegularFile: "it is not a regular file"
        case .otherFile: "it is not a SQLite database"
        case .otherDatabase: "it is another program's SQLite database"
        }
    }

    /// Whether `tables` are a store's: the migrations table and only tables a store version had.
    static func isStoreSchema(_ tables: Set<String>) -> Bool {
        tables.contains("grdb_migrations") && tables.isSubset(of: StoreMigrations.signatureTables)
    }
}
