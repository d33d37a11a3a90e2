import Foundation
import GRDB
import TextFormatting

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
            let (tables, steps) = try queue.read { db in
                let tables = try String.fetchSet(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'").filter { !$0.hasPrefix("sqlite_") }
                let steps = tables.contains("grdb_migrations") ? try String.fetchSet(db, sql: "SELECT identifier FROM grdb_migrations") : []
                return (tables, steps)
            }
            try queue.close()
            if tables.isEmpty { return .empty }
            return isStoreSchema(tables: tables, steps: steps) ? .store : .otherDatabase
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

    /// Whether a database with `tables` and the applied migration `steps` is a store: it took the
    /// store's first step, or it is one being created (GRDB makes its migrations table before the
    /// first step commits). Whatever tables a later version adds, its stores are still recognised
    /// (and refused as newer, or cleared), and another program's database never is.
    static func isStoreSchema(tables: Set<String>, steps: Set<String>) -> Bool {
        steps.contains(StoreMigrations.firstStep) || (steps.isEmpty && tables == ["grdb_migrations"])
    }

    /// Deletes the store at `url` with its WAL, shared-memory and lock files, without opening it
    /// for writing, so a damaged store can be removed too. Only a store or a damaged SQLite file
    /// is deleted: a folder, a link, another program's database or any other file is refused
    /// with ``StoreError/notAStore(path:reason:)`` and left as it is. Returns whether there was
    /// anything to remove.
    @discardableResult
    public static func removeStore(at url: URL) throws(StoreError) -> Bool {
        let file = classify(url)
        guard file != .missing else { return false }
        if let refusal = file.refusal ?? (file == .empty ? "it is an empty file" : nil) {
            throw .notAStore(path: url.path, reason: refusal)
        }
        for suffix in ["-wal", "-shm", "", "-lock"] {
            let path = url.path + suffix
            guard FileManager.default.fileExists(atPath: path) else { continue }
            do {
                try FileManager.default.removeItem(atPath: path)
            } catch {
                throw .cannotOpen(path: path, reason: FileErrorText.reason(error))
            }
        }
        return true
    }
}

extension StoreFile {
    /// Makes the store at `url` readable by its owner only (it holds watchlist notes): a new one
    /// is created with mode 0600, and an existing one, with its WAL and shared-memory files, loses
    /// any permission for others. SQLite gives the WAL and shared-memory files it creates the
    /// database file's mode.
    static func makePrivate(_ url: URL) throws(StoreError) {
        let descriptor = open(url.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        if descriptor >= 0 {
            close(descriptor)
            return
        }
        guard errno == EEXIST else {
            throw .cannotOpen(path: url.path, reason: String(cString: strerror(errno)))
        }
        for suffix in ["", "-wal", "-shm"] {
            var status = stat()
            let path = url.path + suffix
            guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_mode & 0o077 != 0 else { continue }
            guard chmod(path, status.st_mode & 0o700) == 0 else {
                throw .cannotOpen(path: path, reason: "it cannot be made private to its owner (\(String(cString: strerror(errno))))")
            }
        }
    }
}
