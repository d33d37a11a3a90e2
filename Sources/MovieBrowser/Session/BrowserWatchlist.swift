import MovieStore

/// The watchlist as the browser uses it: the app supplies one over its store and its sync.
public protocol BrowserWatchlist: Sendable {
    /// The list as this machine sees it now.
    func view() async throws -> WatchlistView

    /// Writes the addition or removal of `movieID` to the outbox (shown at once).
    func change(movieID: Int, add: Bool) async throws

    /// Sends the pending changes and fetches the server's list. `nil` when that was done; else
    /// what to tell the user (the network failed, the list is kept on this machine).
    func sync() async -> String?

    /// Signs a person in first when the list is a person's and nobody is signed in (or their
    /// session ended), showing what `show` is given (the page and the code) until they approve;
    /// returns at once when nobody needs to sign in.
    func signInIfNeeded(_ show: @escaping @Sendable (BrowserSignIn) -> Void) async -> BrowserSignInOutcome

    /// Follows the server's live feed until the task is cancelled or the feed stops for good,
    /// telling `report` its state and what changed. Returns at once when there is no feed to
    /// follow (the list is kept on this machine, or the network is not to be used).
    func follow(_ report: @escaping @Sendable (BrowserLive) async -> Void) async

    /// The person's sign-in ended (the live feed was refused a renewal): forget them, so that the
    /// next ``signInIfNeeded(_:)`` signs someone in again.
    func signedOut() async

    /// Why this machine's store cannot keep a change this run (it is damaged, of a newer version,
    /// its folder cannot be written), in words for the screen; `nil` when it can. Every change is
    /// refused while it cannot.
    var storeProblem: String? { get }
}

extension BrowserWatchlist {
    public func signInIfNeeded(_ show: @escaping @Sendable (BrowserSignIn) -> Void) async -> BrowserSignInOutcome { .notNeeded }

    public func signedOut() async {}

    public func follow(_ report: @escaping @Sendable (BrowserLive) async -> Void) async {}

    public var storeProblem: String? { nil }
}

/// What the Watchlist segment shows while a person signs in from the browser: the original app's
/// "show a login screen", on a terminal (the device flow, RFC 8628).
public enum BrowserSignIn: Sendable, Equatable {
    /// Open `page` and enter `userCode` (or open `complete`), then approve; the browser waits.
    case code(page: String, userCode: String, complete: String?)
    /// Asking the server for a code.
    case starting
    /// The sign-in ended without a person (the code expired, was denied, the server could not be
    /// reached), for this reason; `r` asks for a new code.
    case ended(String)
}

/// How a sign-in from the browser ended.
public enum BrowserSignInOutcome: Sendable, Equatable {
    /// Nobody needed to sign in.
    case notNeeded
    /// The person approved; `account` is signed in now.
    case signedIn(account: String)
    /// It did not happen, in words for the status line.
    case failed(String)
}
