import Crypto
import Foundation

/// What the sign-in page's cookie session holds: a CSRF token for its forms, and once a person
/// has signed in, the account, a stamp of its password hash (a new password or a removed account
/// ends the session), and the user code they are deciding on (kept here, not in a URL). A code
/// that came before the person signed in is only offered (`prefillCode`): they confirm it with a
/// form of the page before it is shown for approval.
struct WebSession: Codable, Sendable {
    var csrf: String
    var account: String?
    var passwordStamp: String?
    var userCode: String?
    var prefillCode: String?

    static func anonymous() -> WebSession {
        WebSession(csrf: Data(SymmetricKey(size: .bits256).withUnsafeBytes { Array($0) }).base64URLEncoded)
    }

    /// A short digest of a password hash: equal for the same hash, telling nothing of it.
    static func stamp(ofPasswordHash hash: String) -> String {
        Data(SHA256.hash(data: Data(hash.utf8)).prefix(12)).base64URLEncoded
    }

    /// Whether `token`, from a form, is this session's CSRF token (compared in constant time).
    func acceptsCSRF(_ token: String?) -> Bool {
        guard let token else { return false }
        return SHA256.hash(data: Data(token.utf8)) == SHA256.hash(data: Data(csrf.utf8))
    }
}
