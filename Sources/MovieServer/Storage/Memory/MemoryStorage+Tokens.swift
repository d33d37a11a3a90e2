import Foundation

extension MemoryStorage: TokenStorage {
    public func saveRefreshToken(_ token: StoredRefreshToken) {
        identity.withLockedValue { $0.refreshTokens[token.hash] = (token, used: false) }
    }

    public func redeemRefreshToken(hash: [UInt8]) -> RefreshRedemption {
        identity.withLockedValue { state in
            guard let (token, used) = state.refreshTokens[hash] else { return .unknown }
            if used { return .reused(token) }
            state.refreshTokens[hash] = (token, used: true)
            return .redeemed(token)
        }
    }

    public func revokeRefreshToken(hash: [UInt8]) -> StoredRefreshToken? {
        identity.withLockedValue { $0.refreshTokens.removeValue(forKey: hash)?.token }
    }

    public func removeRefreshTokens(expiredBefore date: Date) {
        identity.withLockedValue { state in state.refreshTokens = state.refreshTokens.filter { $0.value.token.expiresAt >= date } }
    }
}
