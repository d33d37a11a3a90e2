import Crypto
import Foundation

/// The refresh tokens that may still be used, each once.
///
/// Only a hash of each token is kept. Using a token removes it, so a second use is refused.
actor RefreshTokenStore {
    private struct Entry {
        let clientID: String
        let expiresAt: Date
    }

    private var entries: [SHA256Digest: Entry] = [:]
    private var purgeThreshold = 1024

    /// A new random token for `clientID`, valid until `expiresAt`.
    func issue(for clientID: String, expiresAt: Date, now: Date) -> String {
        if entries.count >= purgeThreshold {
            entries = entries.filter { $0.value.expiresAt > now }
            purgeThreshold = max(1024, entries.count * 2)
        }
        let token = Data(SymmetricKey(size: .bits256).withUnsafeBytes { Array($0) }).base64URLEncoded
        entries[Self.hash(token)] = Entry(clientID: clientID, expiresAt: expiresAt)
        return token
    }

    /// The client the token was issued to, if it is known and unexpired; the token is used up either way.
    func consume(_ token: String, now: Date) -> String? {
        guard let entry = entries.removeValue(forKey: Self.hash(token)), entry.expiresAt > now else { return nil }
        return entry.clientID
    }

    private static func hash(_ token: String) -> SHA256Digest {
        SHA256.hash(data: Data(token.utf8))
    }
}

extension Data {
    var base64URLEncoded: String {
        base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
