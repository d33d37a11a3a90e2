import Movies

/// One change to a known watchlist, as the store's log keeps it: which movie, what became of it,
/// and its note and time after the change. Every process on the store reads the same log, so each
/// window shows each change once, whichever process applied it.
public struct WatchlistChange: Sendable, Hashable {
    /// What a change did to the list.
    public enum Kind: String, Sendable, Hashable {
        case added
        case removed
        case noteChanged
    }

    /// The change's place in the store's log.
    public var sequence: Int64
    public var movieID: Int
    public var kind: Kind
    public var note: String
    /// Milliseconds since 1970, UTC.
    public var changedAt: Int64

    public init(sequence: Int64, movieID: Int, kind: Kind, note: String, changedAt: Int64) {
        self.sequence = sequence
        self.movieID = movieID
        self.kind = kind
        self.note = note
        self.changedAt = changedAt
    }
}
