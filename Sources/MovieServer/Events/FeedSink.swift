/// Where the feed hands a stream's events: called from the feed's task, never on the stream's
/// own event loop, so a sink hops there itself. A sink is given every event of a batch of which
/// at least one is visible to its reader, and keeps only those that are.
protocol FeedSink: AnyObject, Sendable {
    func receive(_ events: [FeedEvent])
    /// The stream has been idle for a heartbeat: time for a comment line, and for checking that
    /// a person's sign-in still holds.
    func heartbeat()
    /// One of the reader's sign-ins ended, on some instance: time to check that the stream's
    /// still holds.
    func signInMayHaveEnded()
}
