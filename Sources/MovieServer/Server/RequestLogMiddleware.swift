import Hummingbird
import Logging

/// Logs one line a request: method, path, status. Never headers, so never a token.
struct RequestLogMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let response = try await next(request, context)
        context.logger.info("\(request.method) \(request.uri.path) \(response.status.code)")
        return response
    }
}
