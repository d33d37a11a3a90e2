/// Why the movie store could not be used. Each message names the file; what to run to fix it is
/// the app's to add.
public enum StoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file exists but is not a readable SQLite database (damaged, or another kind of file).
    case damaged(path: String, reason: String)
    /// The file is a database of another program, or not a file: it is never used or changed.
    case notAStore(path: String, reason: String)
    /// The file or its folder cannot be opened or created.
    case cannotOpen(path: String, reason: String)
    /// The file was written by a newer version of the store.
    case newerVersion(path: String)
    /// The disk or the file system is full.
    case diskFull(path: String)
    /// Reading or writing failed for another reason.
    case failed(path: String, reason: String)

    public var description: String {
        switch self {
        case let .damaged(path, reason):
            "the movie store \(path) is damaged (\(reason)); nothing was changed"
        case let .notAStore(path, reason):
            "\(path) is not a movie store (\(reason)); nothing was changed"
        case let .cannotOpen(path, reason):
            "cannot open the movie store \(path) (\(reason))"
        case let .newerVersion(path):
            "the movie store \(path) was written by a newer version; nothing was changed"
        case let .diskFull(path):
            "the disk is full: the movie store \(path) cannot grow"
        case let .failed(path, reason):
            "the movie store \(path) failed: \(reason)"
        }
    }

    /// The file the error is about, if any.
    public var path: String? {
        switch self {
        case let .damaged(path, _), let .notAStore(path, _), let .cannotOpen(path, _), let .failed(path, _): path
        case let .newerVersion(path), let .diskFull(path): path
        }
    }
}
