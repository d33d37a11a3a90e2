import Crypto
import Foundation

/// What a signed-in person's sign-in page session holds (kept in the server's storage under a
/// digest of its cookie's key): a CSRF token for its forms, the account, its id and the sign-in
/// the session is (listed with the person's devices, and ended with them: by `logout
/// --everywhere`, a new password, the account's removal, or the page's own sign-out), and the
/// user code they are deciding on (kept here, not in a URL). A code that came before the person
/// signed in, or with a link, is only offered (`prefillCode`): they confirm it with a form of the
/// page before it is shown for approval.
struct WebSession: Codable, Sendable {
    var csrf: String
    var account: String
    var accountID: String
    var signInID: String
    var userCode: String?
    var prefillCode: String?

    init(signIn: StoredSignIn, prefillCode: String?) {
        csrf = Data(SymmetricKey(size: .bits256).withUnsafeBytes { Array($0) }).base64URLEncoded
        account = signIn.account
        accountID = signIn.accountID
        signInID = signIn.id
        self.prefillCode = prefillCode
    }

    /// Whether `token`, from a form, is this session's CSRF token (compared in constant time).
    func acceptsCSRF(_ token: String?) -> Bool {
        guard let token else { return false }
        return SHA256.hash(data: Data(token.utf8)) == SHA256.hash(data: Data(csrf.utf8))
    }
}
