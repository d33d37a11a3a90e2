import Crypto
import Foundation
import NIOConcurrencyHelpers

/// The refresh tokens that may still be used, each once, kept in the server's storage.
///
/// Only a SHA-256 of each token is stored. Redeeming a token removes it in one atomic step, so a
/// second use is refused, on this instance or any other sharing the database.
struct RefreshTokens: Sendable {
    let storage: any ServerStorage
    private let issuedSincePurge = NIOLockedValueBox(0)
    private static let purgeInterval = 1024

    init(storage: any ServerStorage) {
        self.storage = storage
    }

    /// A new random token for `clientID`, valid until `expiresAt`.
    func issue(for clientID: String, expiresAt: Date, now: Date) async throws(ErrorAnswer) -> String {
        let token = Data(SymmetricKey(size: .bits256).withUnsafeBytes { Array($0) }).base64URLEncoded
        do {
            if issuedSincePurge.withLockedValue({ count in count += 1; return count % Self.purgeInterval == 0 }) {
                try await storage.removeRefreshTokens(expiredBefore: now)
            }
            try await storage.saveRefreshToken(StoredRefreshToken(hash: Self.hash(token), clientID: clientID, expiresAt: expiresAt))
        } catch {
            throw .storageUnavailable(error)
        }
        return token
    }

    /// The client the token was issued to, if it is known and unexpired; the token is used up either way.
    func consume(_ token: String, now: Date) async throws(ErrorAnswer) -> String? {
        let stored: StoredRefreshToken?
        do {
            stored = try await storage.redeemRefreshToken(hash: Self.hash(token))
        } catch {
            throw .storageUnavailable(error)
        }
        guard let stored, stored.expiresAt > now else { return nil }
        return stored.clientID
    }

    private static func hash(_ token: String) -> [UInt8] {
        Array(SHA256.hash(data: Data(token.utf8)))
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
