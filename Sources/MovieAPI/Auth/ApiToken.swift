import Foundation
import Movies

/// A token response exactly as the API sends it (RFC 6749, section 5.1).
struct ApiToken: Decodable, Sendable {
    let access_token: String
    let token_type: String
    let expires_in: Int
    let refresh_token: String?

    /// The domain credential, expiring `expires_in` seconds after `issuedAt`.
    func credential(issuedAt: Date) -> Credential {
        Credential(
            accessToken: access_token,
            refreshToken: refresh_token,
            issuedAt: issuedAt,
            expiresAt: issuedAt.addingTimeInterval(TimeInterval(max(0, expires_in)))
        )
    }
}
