/// What a person is told when their sign-in to an API has ended (the session was ended, the
/// password changed, the refresh token was refused) or never began.
public enum SignedOut {
    public static func message(account: String, api: String) -> String {
        "signed out of \(api) as \(account): the session has ended; run 'marquee login' to sign in again"
    }
}
