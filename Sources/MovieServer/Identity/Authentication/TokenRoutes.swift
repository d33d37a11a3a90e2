import Foundation
import Hummingbird

/// The OAuth 2.0 endpoints, with form-encoded or JSON parameters:
/// - `POST /api/auth/token`: the token endpoint, for the client credentials, refresh token and
///   device code grants;
/// - `POST /api/auth/device`: the device authorization endpoint (RFC 8628 §3.1), with an optional
///   `device_name` the sign-in page shows;
/// - `POST /api/auth/revoke`: the revocation endpoint (RFC 7009).
struct TokenRoutes: Sendable {
    /// The largest request body the endpoint reads; a larger one is answered 413.
    static let maximumBodySize = 8 * 1024

    let tokens: TokenService

    func register<Context: RequestContext>(on router: some RouterMethods<Context>) {
        router.post("auth/token") { request, context in
            let body = try await request.body.collect(upTo: Self.maximumBodySize)
            let parameters = try Self.parameters(from: body, contentType: request.headers[.contentType])
            let basic = try BasicCredentials.parse(request.headers[.authorization])
            let grant = try await tokens.grant(parameters, basicCredentials: basic, logger: context.logger)
            return try Self.json(grant)
        }
        router.post("auth/device") { request, context in
            let body = try await request.body.collect(upTo: Self.maximumBodySize)
            let parameters = try Self.parameters(from: body, contentType: request.headers[.contentType])
            let client = try tokens.authenticateClient(parameters, basicCredentials: try BasicCredentials.parse(request.headers[.authorization]))
            let base = try tokens.configuration.baseURL(host: request.head.authority)
            let started = try await tokens.deviceFlow.start(
                for: client, deviceName: parameters.device_name, verificationURI: "\(base)\(SignInPage.path)", now: tokens.configuration.now()
            )
            context.logger.notice("started a device authorization for \(client.id)")
            return try Self.json(started)
        }
        router.post("auth/revoke") { request, context in
            let body = try await request.body.collect(upTo: Self.maximumBodySize)
            let parameters = try Self.parameters(from: body, contentType: request.headers[.contentType])
            try await tokens.revoke(parameters, basicCredentials: try BasicCredentials.parse(request.headers[.authorization]), logger: context.logger)
            return Response(status: .ok, headers: [.cacheControl: "no-store"])
        }
    }

    private static func json(_ value: some Encodable) throws -> Response {
        Response(
            status: .ok,
            headers: [.contentType: "application/json", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(bytes: try JSONEncoder().encode(value)))
        )
    }

    private static func parameters(from body: ByteBuffer, contentType: String?) throws(ErrorAnswer) -> TokenRequest {
        let mediaType = contentType?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased()
        do {
            switch mediaType {
            case "application/json":
                return try JSONDecoder().decode(TokenRequest.self, from: Data(body.readableBytesView))
            case "application/x-www-form-urlencoded", nil:
                return try URLEncodedFormDecoder().decode(TokenRequest.self, from: String(buffer: body))
            default:
                throw ErrorAnswer.tokenRequest(
                    .unsupportedMediaType, "invalid_request",
                    "Send the parameters as application/x-www-form-urlencoded or application/json."
                )
            }
        } catch let error as ErrorAnswer {
            throw error
        } catch {
            throw .tokenRequest(.badRequest, "invalid_request", "The token request parameters cannot be read.")
        }
    }
}
