import Hummingbird

/// Counts every answered request in ``ServerMetrics``, by the route pattern that matched
/// (`unmatched` for none), method and status, and times it.
struct RequestMetricsMiddleware<Context: RequestContext>: RouterMiddleware {
    let metrics: ServerMetrics

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        do {
            let response = try await next(request, context)
            record(request, context: context, status: Int(response.status.code), start: start)
            return response
        } catch {
            let status = (error as? any HTTPResponseError)?.status.code ?? 500
            record(request, context: context, status: Int(status), start: start)
            throw error
        }
    }

    /// The matched pattern, or `unmatched`: Hummingbird names its not-found responder `NotFound`,
    /// which is no route of ours.
    static func route(_ endpointPath: String?) -> String {
        guard let endpointPath, endpointPath.hasPrefix("/") else { return "unmatched" }
        return endpointPath
    }

    private func record(_ request: Request, context: Context, status: Int, start: ContinuousClock.Instant) {
        metrics.recordRequest(
            route: Self.route(context.endpointPath), method: request.method.rawValue, status: status,
            duration: ContinuousClock.now - start
        )
    }
}
