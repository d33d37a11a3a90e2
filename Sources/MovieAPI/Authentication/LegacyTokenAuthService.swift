import Foundation
import Movies
import Networking

/// The original site's way to authorize: `GET /api/auth` returns a plain-text token that never
/// expires and cannot be refreshed. Used with the original's `AUTH_TOKEN` header.
public struct LegacyTokenAuthService: AuthService {
    private let client: APIClient
    private let now: @Sendable () -> Date

    public init(client: APIClient, now: @escaping @Sendable () -> Date = { Date() }) {
        self.client = client
        self.now = now
    }

    public func authorize() async throws(NetworkError) -> Credential {
        let issuedAt = now()
        let token = try await client.text(from: APIRoute.auth)
        guard !token.isEmpty else { throw .cannotDecode(path: "$", reason: "the token is empty") }
        return Credential(accessToken: token, refreshToken: nil, issuedAt: issuedAt, expiresAt: .distantFuture)
    }

    public func refresh(using refreshToken: String) async throws(NetworkError) -> Credential {
        try await authorize()
    }
}
