import Foundation
import Logging
import Movies
import Networking

/// The movie API's ``Authenticator``: credentials from an ``AuthService``, sent in an
/// ``AuthorizationHeader``.
///
/// Authorizing and refreshing are logged at `info` in the original app's words ("Authorizing
/// application…", "Authorized, the credential expires in 59 minutes", "Authorizing failed: …"),
/// never with a token.
public struct APIAuthenticator: Authenticator {
    private let authService: any AuthService<NetworkError>
    private let header: AuthorizationHeader
    private let now: @Sendable () -> Date
    private let logger: Logger

    public init(
        authService: any AuthService<NetworkError>,
        header: AuthorizationHeader = .bearer,
        now: @escaping @Sendable () -> Date = { Date() },
        logger: Logger = .disabled
    ) {
        self.authService = authService
        self.header = header
        self.now = now
        self.logger = logger
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
        logger.info("Authorizing application…")
        do {
            let credential = try await authService.authorize()
            logger.info("Authorized, the credential expires in \(expiry(of: credential))")
            return credential
        } catch {
            logger.info("Authorizing failed: \(error)")
            throw error
        }
    }

    public func refresh(_ credential: Credential) async throws(NetworkError) -> Credential {
        guard let refreshToken = credential.refreshToken else {
            logger.info("Refreshing the credential failed: it has no refresh token")
            throw .authenticationFailed("the credential has no refresh token")
        }
        logger.info("Refreshing the credential…")
        do {
            let renewed = try await authService.refresh(using: refreshToken)
            logger.info("Refreshed, the credential expires in \(expiry(of: renewed))")
            return renewed
        } catch {
            logger.info("Refreshing the credential failed: \(error)")
            throw error
        }
    }

    /// "59 minutes", "1 minute", "30 seconds", rounded down as the original app showed it.
    private func expiry(of credential: Credential) -> String {
        let seconds = max(0, Int(credential.expiresAt.timeIntervalSince(now())))
        if seconds < 60 { return seconds == 1 ? "1 second" : "\(seconds) seconds" }
        let minutes = seconds / 60
        return minutes == 1 ? "1 minute" : "\(minutes) minutes"
    }
}
