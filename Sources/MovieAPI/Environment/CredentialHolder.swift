import Crypto
import Foundation

/// Whose credential for an API a context keeps: an application's own (client credentials, per
/// client id and secret) or a person's (per account). Each is kept under a key of its own, so that
/// changing `MARQUEE_CLIENT_ID`, its secret or `--account` never sends another holder's token.
public enum CredentialHolder: Sendable, Hashable, CustomStringConvertible {
    /// A client's own credential; `secretFingerprint` (``fingerprint(of:)``) tells secrets apart
    /// without keeping one.
    case application(clientID: String, secretFingerprint: String)
    case person(account: String)

    /// The holder of the credential that `credentials` obtain.
    public static func application(_ credentials: APIClientCredentials) -> CredentialHolder {
        .application(clientID: credentials.id, secretFingerprint: fingerprint(of: credentials.secret))
    }

    /// Eight bytes of a SHA-256 of `secret`, in hex: enough to tell two secrets apart, far too
    /// little to find one.
    public static func fingerprint(of secret: String) -> String {
        SHA256.hash(data: Data(secret.utf8)).prefix(8).map { String(format: "%02x", $0) }.joined()
    }

    /// The key of this holder's credential for the API `identity` in the credentials file.
    public func key(for identity: APIIdentity) -> String {
        switch self {
        case let .application(clientID, fingerprint): "\(identity.key) client:\(clientID)@\(fingerprint)"
        case let .person(account): "\(identity.key) account:\(account)"
        }
    }

    /// The holder whose key for `identity` this is; nil for a key of another API, or one written
    /// before holders (an API's key alone), which no holder reads.
    public init?(key: String, for identity: APIIdentity) {
        let prefix = identity.key + " "
        guard key.hasPrefix(prefix) else { return nil }
        let rest = key.dropFirst(prefix.count)
        if rest.hasPrefix("client:"), let at = rest.lastIndex(of: "@") {
            self = .application(clientID: String(rest[rest.index(rest.startIndex, offsetBy: "client:".count)..<at]), secretFingerprint: String(rest[rest.index(after: at)...]))
        } else if rest.hasPrefix("account:") {
            self = .person(account: String(rest.dropFirst("account:".count)))
        } else {
            return nil
        }
    }

    public var description: String {
        switch self {
        case let .application(clientID, _): "the client \(clientID)"
        case let .person(account): account
        }
    }
}
