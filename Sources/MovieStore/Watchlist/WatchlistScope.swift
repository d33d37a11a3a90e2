import Foundation

/// Whose watchlist, in the store: one API's, and on a server with accounts one person's of it.
///
/// The watchlist's tables (the outbox, the known list, the pull state) are keyed by this key;
/// the movies it names stay the API's (``api(of:)``), shared by everyone on the machine. A list
/// kept before accounts, or on an API without them, is keyed by the API alone.
public enum WatchlistScope {
    private static let separator = " account:"

    /// The key of `account`'s watchlist of `api`; the API's own key when `account` is nil.
    public static func key(api: MovieStore.APIKey, account: String?) -> MovieStore.APIKey {
        account.map { api + separator + $0 } ?? api
    }

    /// The API a watchlist key belongs to.
    public static func api(of key: MovieStore.APIKey) -> MovieStore.APIKey {
        key.range(of: separator, options: .backwards).map { String(key[..<$0.lowerBound]) } ?? key
    }

    /// The account a watchlist key belongs to; nil for the API's own list.
    public static func account(of key: MovieStore.APIKey) -> String? {
        key.range(of: separator, options: .backwards).map { String(key[$0.upperBound...]) }
    }
}
