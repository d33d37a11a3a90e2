/// Where a ``CachedMovieService`` call gets its data, and in what order.
public enum CachePolicy: Sendable, Hashable {
    /// The stored data first (even when nothing is stored), then fresh data from the network.
    /// The original app's behaviour: two answers for one call.
    case cacheThenNetwork
    /// The stored data when it is younger than `maxAge`; otherwise fresh data, falling back to
    /// the stored data if the network fails. With `maxAge` `nil`, an answer is fresh for as long
    /// as the server said when it gave it (`Cache-Control: max-age`), or ``defaultMaxAge`` when
    /// it did not say.
    case cacheElseNetwork(maxAge: Duration?)
    /// Fresh data; when the network fails, the stored data marked stale, with the error.
    case networkElseCache
    /// Fresh data only; a network failure is the call's failure. The answer is still stored.
    case networkOnly
    /// The stored data only; never the network.
    case cacheOnly

    /// How long `cacheElseNetwork` keeps an answer whose server gave no max-age.
    public static let defaultMaxAge: Duration = .seconds(3600)
}
