/// Whose a watchlist is, as storage names it: an account's list is `account/NAME`; a list kept
/// before accounts existed is under the client id that wrote it (no client id has a `/`).
public enum WatchlistOwner {
    public static func account(_ name: String) -> String { "account/\(name)" }
}
