import Foundation

extension MemoryStorage: TokenStorage {
    public func saveRefreshToken(_ token: StoredRefreshToken) {
        refreshTokens.withLockedValue { $0[token.hash] = token }
    }

    public func redeemRefreshToken(hash: [UInt8]) -> StoredRefreshToken? {
        refreshTokens.withLockedValue { $0.removeValue(forKey: hash) }
    }

    public func removeRefreshTokens(expiredBefore date: Date) {
        refreshTokens.withLockedValue { tokens in tokens = tokens.filter { $0.value.expiresAt >= date } }
    }
}
