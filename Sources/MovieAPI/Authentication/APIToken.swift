import Foundation
import Movies

/// A token response exactly as the API sends it (RFC 6749, section 5.1), checked: an
/// `expires_in` that is not a finite number from 0 to ``maximumLifetime`` seconds is refused,
/// so no later arithmetic on a stored credential can overflow.
struct APIToken: Decodable, Sendable {
    /// Ten years: longer than any access token a server should issue.
    static let maximumLifetime: TimeInterval = 10 * 365 * 86_400

    let accessToken: String
    let tokenType: String
    let expiresIn: TimeInterval
    let refreshToken: String?

    private enum CodingKeys: String, CodingKey {
        case accessToken = "access_token", tokenType = "token_type", expiresIn = "expires_in", refreshToken = "refresh_token"
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        accessToken = try container.decode(String.self, forKey: .accessToken)
        tokenType = try container.decode(String.self, forKey: .tokenType)
        refreshToken = try container.decodeIfPresent(String.self, forKey: .refreshToken)
        let lifetime = try container.decode(Double.self, forKey: .expiresIn)
        guard lifetime.isFinite, (0...Self.maximumLifetime).contains(lifetime) else {
            throw DecodingError.dataCorruptedError(
                forKey: .expiresIn, in: container,
                debugDescription: "expected a number of seconds from 0 to \(Int(Self.maximumLifetime))"
            )
        }
        expiresIn = lifetime
        guard !accessToken.isEmpty else {
            throw DecodingError.dataCorruptedError(forKey: .accessToken, in: container, debugDescription: "the access token is empty")
        }
    }

    /// The domain credential, expiring `expires_in` seconds after `issuedAt`.
    func credential(issuedAt: Date) -> Credential {
        Credential(accessToken: accessToken, refreshToken: refreshToken, issuedAt: issuedAt, expiresAt: issuedAt.addingTimeInterval(expiresIn))
    }
}
