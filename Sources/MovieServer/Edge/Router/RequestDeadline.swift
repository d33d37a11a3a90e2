/// The time by which the request being served must have its answer from storage: one deadline
/// per request, whatever and however many queries it makes, so that waits do not add up (a list
/// that asks for the catalog version and then the list, token requests queued behind a lock).
///
/// `RoutedRequestMiddleware` sets it for each routed request; storage that waits for a
/// database gives up at the earlier of it and its own query timeout.
public enum RequestDeadline {
    @TaskLocal public static var current: ContinuousClock.Instant?

    /// How long storage may still wait: `limit`, cut to what is left of the request's deadline.
    package static func remaining(limit: Duration) -> Duration {
        guard let current else { return limit }
        return max(.zero, min(limit, current - .now))
    }
}
