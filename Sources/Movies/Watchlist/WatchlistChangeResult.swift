import MovieContract
/// What became of one change a server took: its outcome and, when the server says, the time it
/// orders the change by (earlier than the change's own when that was too far ahead of its clock),
/// which is the version a device must keep for it.
public struct WatchlistChangeResult: Sendable, Hashable {
    public var outcome: WatchlistChangeOutcome
    /// Milliseconds since 1970; `nil` when the server did not say (a repeat, or an older server).
    public var orderedAt: Int64?
    /// For a `repeated` change, what became of it when the server first took it; `nil` when the
    /// server did not say (an older server, or a change it took before it kept that).
    public var firstOutcome: WatchlistChangeOutcome?

    public init(_ outcome: WatchlistChangeOutcome, orderedAt: Int64? = nil, firstOutcome: WatchlistChangeOutcome? = nil) {
        self.outcome = outcome
        self.orderedAt = orderedAt
        self.firstOutcome = firstOutcome
    }
}
