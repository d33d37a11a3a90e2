/// Whose a watchlist is, as storage names it: an account's list is `account/ID`, by the
/// account's ``StoredAccount/id`` (never its name, which a later account may take); a list kept
/// before accounts existed is under the client id that wrote it (no client id has a `/`).
public enum WatchlistOwner {
    public static func account(id: String) -> String { "account/\(id)" }
}
