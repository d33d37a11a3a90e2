import Foundation
import Movies
import Networking

/// The movie API's ``Authenticator``: credentials from an ``AuthService``, sent in an
/// ``AuthorizationHeader``.
public struct APIAuthenticator: Authenticator {
    private let authService: any AuthService<NetworkError>
    private let header: AuthorizationHeader
    private let now: @Sendable () -> Date

    public init(authService: any AuthService<NetworkError>, header: AuthorizationHeader = .bearer, now: @escaping @Sendable () -> Date = { Date() }) {
        self.authService = authService
        self.header = header
        self.now = now
    }

    public func apply(_ credential: Credential, to request: inout APIRequest) {
        request.headerFields[header.name] = header.value(for: credential.accessToken)
        request.sensitiveHeaderNames.insert(header.name)
    }

    public func needsRenewal(_ credential: Credential) -> Bool {
        credential.needsRenewal(at: now())
    }

    /// A 401. With the bearer scheme it must also challenge for `Bearer` (RFC 6750): a 401 that
    /// asks for something else is not one a new token can fix.
    public func isAuthenticationFailure(_ request: APIRequest, response: APIResponse?, error: NetworkError) -> Bool {
        switch header {
        case .bearer: AuthenticationChallenge.isChallenge(response, for: "Bearer")
        case .custom: error.statusCode == 401
        }
    }

    public func isRequest(_ request: APIRequest, authenticatedWith credential: Credential) -> Bool {
        request.headerFields[header.name] == header.value(for: credential.accessToken)
    }

    public func authorize() async throws(NetworkError) -> Credential {
        try await authService.authorize()
    }

    public func refresh(_ credential: Credential) async throws(NetworkError) -> Credential {
        guard let refreshToken = credential.refreshToken else {
            throw .authenticationFailed("the credential has no refresh token")
        }
        return try await authService.refresh(using: refreshToken)
    }
}
