import Foundation
import Hummingbird

/// `GET /.well-known/oauth-authorization-server`: where the OAuth endpoints are and what they
/// accept (RFC 8414), so that a standard client finds the device flow without being told.
struct AuthorizationServerMetadata: Encodable, Sendable {
    let issuer: String
    let token_endpoint: String
    let device_authorization_endpoint: String
    let revocation_endpoint: String
    let grant_types_supported: [String]
    let token_endpoint_auth_methods_supported: [String]
    let revocation_endpoint_auth_methods_supported: [String]
    let response_types_supported: [String]
    let service_documentation: String

    static let path = "/.well-known/oauth-authorization-server"

    init(base: String) {
        issuer = base
        token_endpoint = "\(base)/api/auth/token"
        device_authorization_endpoint = "\(base)/api/auth/device"
        revocation_endpoint = "\(base)/api/auth/revoke"
        grant_types_supported = GrantType.allCases.map(\.rawValue)
        token_endpoint_auth_methods_supported = ["client_secret_basic", "client_secret_post"]
        revocation_endpoint_auth_methods_supported = ["client_secret_basic", "client_secret_post"]
        response_types_supported = []
        service_documentation = "\(base)/api/openapi.yaml"
    }

    static func register<Context: RequestContext>(on router: some RouterMethods<Context>, configuration: AuthConfiguration) {
        router.get(RouterPath(path)) { request, _ in
            let metadata = AuthorizationServerMetadata(base: try configuration.baseURL(host: request.head.authority))
            // Built from the request's Host unless a public URL is set: then no shared cache may keep it.
            return Response(
                status: .ok,
                headers: [.contentType: "application/json", .cacheControl: configuration.publicURL == nil ? "private, max-age=3600" : "public, max-age=3600"],
                body: .init(byteBuffer: ByteBuffer(bytes: try JSONEncoder().encode(metadata)))
            )
        }
    }
}
