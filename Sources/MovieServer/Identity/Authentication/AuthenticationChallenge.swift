/// The `WWW-Authenticate` challenges the API sends (RFC 7235), in one realm: Basic for a client
/// at the token endpoint, Bearer for a request without a valid access token (RFC 6750).
enum AuthenticationChallenge {
    static let realm = "marquee"
    static let basic = #"Basic realm="\#(realm)""#
    static let bearer = #"Bearer realm="\#(realm)""#

    /// A Bearer challenge that says why the token was refused.
    static func bearer(error: String, description: String) -> String {
        bearer + #", error="\#(error)", error_description="\#(description)""#
    }
}
