import Crypto
import Foundation

/// What the sign-in page knows of a visitor who has not signed in: a CSRF token for its forms
/// and a code the visitor came with (the device's complete link), kept in a cookie the server
/// signs, never in its storage. A visit stores nothing; a stored session begins when a person
/// signs in (``WebSession``). The token is a signed double-submit cookie: a form is accepted when
/// its `csrf` field is the token of a cookie this server signed, which another site can neither
/// read nor make.
struct PageVisitor: Codable, Sendable, Equatable {
    var csrf: String
    /// The code of the complete link the visitor followed, offered once they sign in.
    var code: String?
    /// When the cookie was made, in seconds since 1970; it is refused ``lifetime`` later.
    var made: Int

    static let cookieName = "marquee_visitor"
    static let lifetime = 3600

    static func new(now: Date) -> PageVisitor {
        PageVisitor(csrf: Data(SymmetricKey(size: .bits256).withUnsafeBytes { Array($0) }).base64URLEncoded, made: Int(now.timeIntervalSince1970))
    }

    /// Whether `token`, from a form, is this visitor's CSRF token (compared in constant time).
    func acceptsCSRF(_ token: String?) -> Bool {
        guard let token else { return false }
        return SHA256.hash(data: Data(token.utf8)) == SHA256.hash(data: Data(csrf.utf8))
    }
}

/// Signs and checks ``PageVisitor`` cookies with a key derived from each of the server's signing
/// keys (the newest signing one signs; any listed one is accepted, so instances that share
/// `--signing-keys` accept each other's cookies, and a rotation ends none).
struct PageVisitorSeal: Sendable {
    let keys: SigningKeyRing

    /// The cookie's value: the visitor, the key's id and the signature, each in base64url.
    func seal(_ visitor: PageVisitor) -> String {
        let signer = keys.newest
        let body = (try? JSONEncoder().encode(visitor)) ?? Data()
        let keyID = Data(signer.id.utf8)
        return [body, keyID, Data(Self.mac(body, keyID: keyID, key: signer.key))].map(\.base64URLEncoded).joined(separator: ".")
    }

    /// The visitor a cookie's value names, if this server signed it less than an hour before `now`.
    func open(_ value: String, now: Date) -> PageVisitor? {
        let parts = value.split(separator: ".", omittingEmptySubsequences: false).compactMap { Data(base64URLEncoded: String($0)) }
        guard value.utf8.count <= 2048, parts.count == 3, let id = String(data: parts[1], encoding: .utf8), let key = keys.key(id: id),
              HMAC<SHA256>.isValidAuthenticationCode(parts[2], authenticating: parts[0] + [0] + parts[1], using: Self.visitorKey(key.key)),
              let visitor = try? JSONDecoder().decode(PageVisitor.self, from: parts[0])
        else { return nil }
        let age = Int(now.timeIntervalSince1970) - visitor.made
        return (0..<PageVisitor.lifetime).contains(age) ? visitor : nil
    }

    /// The `Set-Cookie` value that keeps `visitor`, or (nil) forgets it.
    func cookie(_ visitor: PageVisitor?, secure: Bool) -> String {
        let value = visitor.map(seal) ?? ""
        let age = visitor == nil ? 0 : PageVisitor.lifetime
        return "\(PageVisitor.cookieName)=\(value); Path=\(SignInPage.path); Max-Age=\(age); HttpOnly; SameSite=Lax" + (secure ? "; Secure" : "")
    }

    private static func mac(_ body: Data, keyID: Data, key: SymmetricKey) -> [UInt8] {
        Array(HMAC<SHA256>.authenticationCode(for: body + [0] + keyID, using: visitorKey(key)))
    }

    /// The key visitor cookies are signed with, derived from a signing key for this use alone.
    private static func visitorKey(_ key: SymmetricKey) -> SymmetricKey {
        SymmetricKey(data: HMAC<SHA256>.authenticationCode(for: Data("marquee page visitor".utf8), using: key))
    }
}
