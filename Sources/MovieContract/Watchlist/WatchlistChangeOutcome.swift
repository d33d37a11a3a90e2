/// What the server did with one sent change.
public enum WatchlistChangeOutcome: String, Sendable, Hashable, Codable {
    /// It is the newest change to its movie, and now in force.
    case applied
    /// A newer change to the same movie (from another device) was already in force.
    case superseded
    /// The server had applied this change before (an earlier attempt's answer was lost).
    case repeated
    /// The server's catalogue has no such movie.
    case unknownMovie
    /// The person has no such list (it was never made, or was deleted): a list's movie is kept
    /// only on a list in force. Changes nothing.
    case unknownList
}
