import Foundation
import Hummingbird

/// `POST /api/auth/token`: the OAuth 2.0 token endpoint, for the client credentials and
/// refresh token grants, with form-encoded or JSON parameters.
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
            let json = try JSONEncoder().encode(grant)
            return Response(
                status: .ok,
                headers: [.contentType: "application/json", .cacheControl: "no-store"],
                body: .init(byteBuffer: ByteBuffer(bytes: json))
            )
        }
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
