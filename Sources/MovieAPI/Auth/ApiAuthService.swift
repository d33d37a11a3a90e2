import Foundation
import Movies
import Networking

/// An ``AuthService`` backed by the movie API's token endpoint.
///
/// It throws ``NetworkError`` only; a refused grant is a `.status` error with the server's reason.
public struct ApiAuthService: AuthService {
    private let client: APIClient
    private let clientID: String
    private let clientSecret: String
    private let now: @Sendable () -> Date

    public init(client: APIClient, clientID: String, clientSecret: String, now: @escaping @Sendable () -> Date = { Date() }) {
        self.client = client
        self.clientID = clientID
        self.clientSecret = clientSecret
        self.now = now
    }

    public func authorize() async throws -> Credential {
        try await credential(for: .clientCredentials(id: clientID, secret: clientSecret))
    }

    public func refresh(using refreshToken: String) async throws -> Credential {
        try await credential(for: .refreshToken(refreshToken))
    }

    private func credential(for grant: TokenGrant) async throws(NetworkError) -> Credential {
        let requestedAt = now()
        let token = try await client.decode(ApiToken.self, from: ApiRoute.token(grant))
        guard token.token_type.lowercased() == "bearer" else {
            throw .cannotDecode(path: "$.token_type", reason: "expected Bearer, found '\(token.token_type.prefix(20))'")
        }
        return token.credential(issuedAt: requestedAt)
    }
}
