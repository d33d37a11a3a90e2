import Foundation
import NIOConcurrencyHelpers

/// The access tokens this server has verified, with their identity and expiry, so that a token seen
/// again is accepted without decoding it and checking its signature again: on the event loop,
/// which cannot wait, and in the router, which need not.
///
/// Only tokens that passed every check are kept, and a kept token is accepted only until it
/// expires: the signing keys and the claims checked do not change while the server runs, so the
/// answer is the one a full verification would give. At most `capacity` tokens are kept; when it
/// is full, the expired ones go, and if that is not enough, all of them (they are verified again).
final class VerifiedAccessTokens: Sendable {
    private let capacity: Int
    private let accepted = NIOLockedValueBox<[String: Acceptance]>([:])

    private struct Acceptance {
        let identity: AccessTokenIdentity
        let expiry: Date
    }

    init(capacity: Int = 10_000) {
        self.capacity = capacity
    }

    func remember(_ token: String, identity: AccessTokenIdentity, expiresAt expiry: Date, now: Date) {
        accepted.withLockedValue { accepted in
            if accepted.count >= capacity {
                accepted = accepted.filter { $0.value.expiry > now }
                if accepted.count >= capacity { accepted.removeAll(keepingCapacity: true) }
            }
            accepted[token] = Acceptance(identity: identity, expiry: expiry)
        }
    }

    /// The identity of `token` if it was verified and has not expired at `now`.
    func identity(of token: String, now: Date) -> AccessTokenIdentity? {
        guard let acceptance = accepted.withLockedValue({ $0[token] }), acceptance.expiry > now else { return nil }
        return acceptance.identity
    }
}
