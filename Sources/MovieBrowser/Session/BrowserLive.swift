/// What the server's live feed tells an open browser: its state for the status line, and what
/// changed elsewhere, so that the screen shows it without a key being pressed.
public enum BrowserLive: Sendable, Equatable {
    /// The feed's state in the status line's words: `live`, `reconnecting in 4 s`, or why not.
    case status(String)
    /// The watchlist in the store changed (another device's change, or the list fetched again).
    case watchlistChanged
    /// The catalogue is at a new version: the lists, the open movie and the search are asked again.
    case catalogChanged
    /// The person's sign-in ended (signed out everywhere, a new password): the screen shows its
    /// sign-in again.
    case signedOut(String)
    /// A person signed in elsewhere (`marquee login` in another terminal) while nobody was signed
    /// in here: the list is theirs from now on, and their feed is followed.
    case signedIn(account: String)
}
