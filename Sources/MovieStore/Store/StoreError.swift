/// Why the movie store could not be used. Each message names the file and what to do.
public enum StoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file exists but is not a readable SQLite database (damaged, or another kind of file).
    case damaged(path: String, reason: String)
    /// The file or its folder cannot be opened or created.
    case cannotOpen(path: String, reason: String)
    /// The file was written by a newer version of Marquee.
    case newerVersion(path: String)
    /// Nothing is stored for what was asked, and the policy forbids the network.
    case notStored(String)
    /// Reading or writing failed for another reason.
    case failed(path: String, reason: String)

    public var description: String {
        switch self {
        case let .damaged(path, reason):
            "the movie store \(path) is damaged or is not a Marquee store (\(reason)); nothing was changed: move the file away or run 'marquee cache clear'"
        case let .cannotOpen(path, reason):
            "cannot open the movie store \(path) (\(reason)); check the folder's permissions or choose another file with --store"
        case let .newerVersion(path):
            "the movie store \(path) was written by a newer version of Marquee; update Marquee, or run 'marquee cache clear' to start over"
        case let .notStored(what):
            "nothing is stored for \(what) yet; run once with the network to fill the store"
        case let .failed(path, reason):
            "the movie store \(path) failed: \(reason)"
        }
    }
}
