import Foundation
import NIOConcurrencyHelpers

/// The access tokens this server has verified, with their expiry, so that a token seen again can
/// be accepted without checking its signature again, from code that cannot wait (the event loop).
///
/// Only tokens that passed every check are kept, and a kept token is accepted only until it
/// expires: the signing keys and the claims checked do not change while the server runs, so the
/// answer is the one a full verification would give. At most `capacity` tokens are kept; when it
/// is full, the expired ones go, and if that is not enough, all of them (they are verified again).
final class VerifiedAccessTokens: Sendable {
    private let capacity: Int
    private let expiries = NIOLockedValueBox<[String: Date]>([:])

    init(capacity: Int = 10_000) {
        self.capacity = capacity
    }

    func remember(_ token: String, expiresAt expiry: Date, now: Date) {
        expiries.withLockedValue { expiries in
            if expiries.count >= capacity {
                expiries = expiries.filter { $0.value > now }
                if expiries.count >= capacity { expiries.removeAll(keepingCapacity: true) }
            }
            expiries[token] = expiry
        }
    }

    /// Whether `token` was verified and has not expired at `now`.
    func accepts(_ token: String, now: Date) -> Bool {
        guard let expiry = expiries.withLockedValue({ $0[token] }) else { return false }
        return expiry > now
    }
}
