import NIOConcurrencyHelpers

/// Counts the tokens a server granted, by grant type, the grant requests it refused, and the
/// movie requests it answered 401 (a challenge for a bearer token).
public final class GrantLedger: Sendable {
    /// A snapshot of the counts.
    public struct Counts: Sendable, Hashable, CustomStringConvertible {
        public var clientCredentials = 0
        public var refreshToken = 0
        public var deviceCode = 0
        public var refused = 0

        public init(clientCredentials: Int = 0, refreshToken: Int = 0, deviceCode: Int = 0, refused: Int = 0) {
            self.clientCredentials = clientCredentials
            self.refreshToken = refreshToken
            self.deviceCode = deviceCode
            self.refused = refused
        }

        public var description: String {
            "client_credentials=\(clientCredentials) refresh_token=\(refreshToken) device_code=\(deviceCode) refused=\(refused)"
        }
    }

    private let counts = NIOLockedValueBox(Counts())
    private let challengeCount = NIOLockedValueBox(0)

    /// How many requests were answered 401 for a missing or invalid access token.
    public var challenges: Int { challengeCount.withLockedValue { $0 } }

    func recordChallenge() {
        challengeCount.withLockedValue { $0 += 1 }
    }

    public init() {}

    public var current: Counts { counts.withLockedValue { $0 } }

    func recordGrant(_ type: GrantType) -> Counts {
        counts.withLockedValue { counts in
            switch type {
            case .clientCredentials: counts.clientCredentials += 1
            case .refreshToken: counts.refreshToken += 1
            case .deviceCode: counts.deviceCode += 1
            }
            return counts
        }
    }

    func recordRefusal() -> Counts {
        counts.withLockedValue { counts in
            counts.refused += 1
            return counts
        }
    }
}
