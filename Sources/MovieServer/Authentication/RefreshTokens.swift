import Crypto
import Foundation
import NIOConcurrencyHelpers

/// The refresh tokens that may still be used, each once, kept in the server's storage.
///
/// Only a SHA-256 of each token is stored, bound to the client it was issued to: the digest covers
/// the token, the client's id and a digest of its secret, so only that client, with the secret it
/// had then, can redeem it (RFC 6749 §6). Another client, or the same client after its secret
/// changed, finds no such token. Redeeming a token removes it in one atomic step, so a second use
/// is refused, on this instance or any other sharing the database.
struct RefreshTokens: Sendable {
    let storage: any TokenStorage
    private let issuedSincePurge = NIOLockedValueBox(0)
    private static let purgeInterval = 1024

    init(storage: any TokenStorage) {
        self.storage = storage
    }

    /// A new random token for `client`, valid until `expiresAt`.
    func issue(for client: ClientCredentials, expiresAt: Date, now: Date) async throws(ErrorAnswer) -> String {
        let token = Data(SymmetricKey(size: .bits256).withUnsafeBytes { Array($0) }).base64URLEncoded
        do {
            if issuedSincePurge.withLockedValue({ count in count += 1; return count % Self.purgeInterval == 0 }) {
                try await storage.removeRefreshTokens(expiredBefore: now)
            }
            try await storage.saveRefreshToken(StoredRefreshToken(hash: Self.hash(token, boundTo: client), clientID: client.id, expiresAt: expiresAt))
        } catch {
            throw .storageUnavailable(error)
        }
        return token
    }

    /// Whether `token` was issued to `client` (with its present secret) and is unexpired; a token
    /// found is used up either way, one issued to another client is left as it is.
    func consume(_ token: String, presentedBy client: ClientCredentials, now: Date) async throws(ErrorAnswer) -> Bool {
        let stored: StoredRefreshToken?
        do {
            stored = try await storage.redeemRefreshToken(hash: Self.hash(token, boundTo: client))
        } catch {
            throw .storageUnavailable(error)
        }
        guard let stored, stored.expiresAt > now else { return false }
        return stored.clientID == client.id
    }

    private static func hash(_ token: String, boundTo client: ClientCredentials) -> [UInt8] {
        var hasher = SHA256()
        hasher.update(data: Data(token.utf8))
        hasher.update(data: [0])
        hasher.update(data: Data(client.id.utf8))
        hasher.update(data: [0])
        hasher.update(data: Data(SHA256.hash(data: Data(client.secret.utf8))))
        return Array(hasher.finalize())
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
