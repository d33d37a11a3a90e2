import MovieContract
/// What became of one change a server took: its outcome and, when the server says, the time it
/// orders the change by (earlier than the change's own when that was too far ahead of its clock),
/// which is the version a device must keep for it.
public struct WatchlistChangeResult: Sendable, Hashable {
    public var outcome: WatchlistChangeOutcome
    /// Milliseconds since 1970; `nil` when the server did not say (a repeat, or an older server).
    public var orderedAt: Int64?

    public init(_ outcome: WatchlistChangeOutcome, orderedAt: Int64? = nil) {
        self.outcome = outcome
        self.orderedAt = orderedAt
    }
}
