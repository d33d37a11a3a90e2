import Foundation

/// How long a watchlist request's answer is kept under its `Idempotency-Key`: a retry within this
/// time gets the first answer (the change ids guard against a repeat after it).
public enum WatchlistRetention {
    public static let keys: TimeInterval = 25 * 3600
    /// How often a write also removes the answers past their time.
    package static let purgeInterval: TimeInterval = 600
}
