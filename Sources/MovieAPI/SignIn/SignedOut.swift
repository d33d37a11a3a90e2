/// What a person is told when their sign-in to an API has ended (the session was ended, the
/// password changed, the refresh token was refused) or never began.
public enum SignedOut {
    public static func message(account: String, api: String) -> String {
        "signed out of \(api) as \(account): the session has ended; run 'marquee login' to sign in again"
    }

    /// The signed-out sentence inside an error's description (an interceptor wraps it in its
    /// own words), or nil when the error is not a person signed out.
    public static func sentence(in description: String) -> String? {
        guard let start = description.range(of: "signed out of "),
              let end = description.range(of: "to sign in again", range: start.upperBound..<description.endIndex)
        else { return nil }
        return String(description[start.lowerBound..<end.upperBound])
    }
}
