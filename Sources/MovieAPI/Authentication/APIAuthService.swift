import Foundation
import Movies
import Networking

/// An ``AuthService`` backed by the movie API's token endpoint. A grant refused as
/// `invalid_grant` is ``Networking/NetworkError/authenticationFailed(_:)``; any other failure is
/// the error it is, with the server's reason (``TokenEndpointAnswer``).
///
/// For an application it authorizes with the client credentials. For a person (`person` names
/// the account) it only refreshes: a person signs in with ``DeviceSignIn``, and when their chain
/// is refused there is nothing to fall back to but signing in again, which ``authorize()`` says.
public struct APIAuthService: AuthService {
    private let client: APIClient
    private let clientCredentials: APIClientCredentials
    private let person: (account: String, api: String)?
    private let now: @Sendable () -> Date

    public init(
        client: APIClient, clientCredentials: APIClientCredentials, person: (account: String, api: String)? = nil,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.client = client
        self.clientCredentials = clientCredentials
        self.person = person
        self.now = now
    }

    public func authorize() async throws(NetworkError) -> Credential {
        if let person {
            throw .authenticationFailed(SignedOut.message(account: person.account, api: person.api))
        }
        return try await credential(for: .clientCredentials(id: clientCredentials.id, secret: clientCredentials.secret))
    }

    public func refresh(using refreshToken: String) async throws(NetworkError) -> Credential {
        try await credential(for: .refreshToken(refreshToken, clientID: clientCredentials.id, secret: clientCredentials.secret))
    }

    private func credential(for grant: TokenGrant) async throws(NetworkError) -> Credential {
        let requestedAt = now()
        let token = try TokenEndpointAnswer.token(from: try await client.send(TokenEndpointAnswer.endpoint(grant)), grant: grant)
        guard token.tokenType.lowercased() == "bearer" else {
            throw .cannotDecode(path: "$.token_type", reason: "expected Bearer, found '\(token.tokenType.prefix(20))'")
        }
        return token.credential(issuedAt: requestedAt)
    }
}
