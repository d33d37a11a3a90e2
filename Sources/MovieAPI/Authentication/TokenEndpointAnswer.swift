import Foundation
import MovieContract
import Networking

/// How the token endpoint answered a grant: tokens (RFC 6749 §5.1), or an error (§5.2).
///
/// Only `invalid_grant` in a `400`, the grant itself refused (a refresh token unknown, expired,
/// used or revoked), becomes ``Networking/NetworkError/authenticationFailed(_:)``: the one answer
/// that ends a person's sign-in. Every other failure stays what it is (another OAuth error, a
/// `429`, a `5xx`, a proxy's page, an answer that cannot be read), so that a server, or anything
/// between, that cannot answer now leaves the stored credential as it is.
enum TokenEndpointAnswer {
    /// The token request for `grant`, with the `400` of an OAuth error accepted for reading.
    static func endpoint(_ grant: TokenGrant) -> Endpoint {
        var endpoint = APIRoute.token(grant).endpoint
        endpoint.acceptableStatusCodes = 200..<401
        return endpoint
    }

    /// The tokens in `response`, or why there are none.
    static func token(from response: APIResponse, grant: TokenGrant) throws(NetworkError) -> APIToken {
        if (200..<300).contains(response.status.code) {
            return try Request<APIToken>(APIRoute.token(grant)).decode(response.body)
        }
        if response.status.code == 400, let refusal = try? JSONDecoder().decode(ErrorBody.self, from: response.body), refusal.error == "invalid_grant" {
            let reason = refusal.errorDescription.isEmpty ? "no reason given" : refusal.errorDescription
            throw .authenticationFailed("the server refused the \(grant.grantType) grant (invalid_grant: \(reason))")
        }
        throw .status(of: response)
    }
}
