import Crypto
import Foundation
import NIOConcurrencyHelpers

/// The refresh tokens that may still be used, each once, kept in the server's storage.
///
/// Only a SHA-256 of each token is stored, bound to the client it was issued to: the digest covers
/// the token, the client's id and a digest of its secret, so only that client, with the secret it
/// had then, can redeem it (RFC 6749 §6). Another client, or the same client after its secret
/// changed, finds no such token. A person's tokens also name their sign-in: each redemption
/// replaces the token (rotation), and a token redeemed a second time, by anyone, ends the
/// sign-in and with it every token of its chain (RFC 9700 §4.14.2), on every instance.
struct RefreshTokens: Sendable {
    let storage: any TokenStorage & SignInStorage
    private let issuedSincePurge = NIOLockedValueBox(0)
    private static let purgeInterval = 1024

    init(storage: any TokenStorage & SignInStorage) {
        self.storage = storage
    }

    /// A new random token for `client` (continuing `signIn`'s chain, for a person), valid until `expiresAt`.
    func issue(for client: ClientCredentials, signIn: StoredSignIn?, expiresAt: Date, now: Date) async throws(ErrorAnswer) -> String {
        let token = Data(SymmetricKey(size: .bits256).withUnsafeBytes { Array($0) }).base64URLEncoded
        try await answering { () async throws(StorageError) in
            if issuedSincePurge.withLockedValue({ count in count += 1; return count % Self.purgeInterval == 0 }) {
                try await storage.removeRefreshTokens(expiredBefore: now)
            }
            try await storage.saveRefreshToken(StoredRefreshToken(
                hash: Self.hash(token, boundTo: client), clientID: client.id, expiresAt: expiresAt, signInID: signIn?.id
            ))
        }
        return token
    }

    /// What `token`, presented by `client`, continues: `.application` for a client's own chain,
    /// `.person` with the sign-in for a person's; nil when it is unknown, expired, used before
    /// (which ends its sign-in) or its sign-in has ended. A token found is used up either way.
    func consume(_ token: String, presentedBy client: ClientCredentials, now: Date) async throws(ErrorAnswer) -> RefreshedChain? {
        try await answering { () async throws(StorageError) -> RefreshedChain? in
            switch try await storage.redeemRefreshToken(hash: Self.hash(token, boundTo: client)) {
            case .unknown:
                return nil
            case let .reused(stored):
                if let id = stored.signInID, let signIn = try await storage.signIn(id: id) {
                    _ = try await storage.endSignIns(ofAccount: signIn.account, id: id)
                }
                return nil
            case let .redeemed(stored):
                guard stored.expiresAt > now, stored.clientID == client.id else { return nil }
                guard let id = stored.signInID else { return .application }
                guard let signIn = try await storage.signIn(id: id) else { return nil }
                try await storage.touchSignIn(id: id, at: now)
                return .person(signIn)
            }
        }
    }

    /// Ends what `token` belongs to, if `client` holds it: a person's whole sign-in, or the one
    /// token of a client's chain (RFC 7009 §2.1). Unknown tokens are ignored.
    func revoke(_ token: String, presentedBy client: ClientCredentials) async throws(ErrorAnswer) {
        try await answering { () async throws(StorageError) in
            guard let stored = try await storage.revokeRefreshToken(hash: Self.hash(token, boundTo: client)),
                  let id = stored.signInID, let signIn = try await storage.signIn(id: id)
            else { return }
            _ = try await storage.endSignIns(ofAccount: signIn.account, id: id)
        }
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

/// Whose chain a redeemed refresh token continued.
enum RefreshedChain: Sendable {
    case application
    case person(StoredSignIn)
}
