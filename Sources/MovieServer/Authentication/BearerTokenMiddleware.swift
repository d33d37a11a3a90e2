import Hummingbird

/// Lets a request through only with a valid `Authorization: Bearer` access token (RFC 6750).
struct BearerTokenMiddleware<Context: RequestContext>: RouterMiddleware {
    let tokens: TokenService

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            guard let header = request.headers[.authorization], let token = BearerAuthorization.token(in: header) else {
                throw ErrorAnswer.missingToken
            }
            _ = try await tokens.verifyAccessToken(token)
        } catch {
            tokens.ledger.recordChallenge()
            throw error
        }
        return try await next(request, context)
    }
}
