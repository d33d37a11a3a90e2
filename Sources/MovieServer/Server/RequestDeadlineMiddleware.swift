import Hummingbird

/// Gives each routed request one ``RequestDeadline``: `timeout` from when it reaches the router.
struct RequestDeadlineMiddleware<Context: RequestContext>: RouterMiddleware {
    let timeout: Duration

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        try await RequestDeadline.$current.withValue(.now + timeout) {
            try await next(request, context)
        }
    }
}
