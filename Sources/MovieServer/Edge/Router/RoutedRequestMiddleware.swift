import Hummingbird
import Logging

/// What every routed request goes through, in this order: a ``RequestDeadline`` of `timeout` for
/// whatever it asks of storage, its errors made JSON answers (``JSONErrorAnswers``), one log line
/// (method, path, status; never headers, so never a token), and its count and duration in
/// ``ServerMetrics`` by the route pattern that matched (`unmatched` for none).
///
/// One middleware rather than a chain of four: each layer of Hummingbird's chain is an async call
/// with its closures, and the four cost about 7 µs of CPU a request of the router's 25–33
/// (`docs/benchmarks.md`, "The router path").
struct RoutedRequestMiddleware<Context: RequestContext>: RouterMiddleware {
    let errors: JSONErrorAnswers
    let metrics: ServerMetrics
    let timeout: Duration

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        let response: Response
        do {
            response = try await RequestDeadline.$current.withValue(start + timeout) {
                try await next(request, context)
            }
        } catch {
            response = errors.response(for: error, to: request, logger: context.logger)
        }
        context.logger.info("\(request.method) \(request.uri.path) \(response.status.code)")
        metrics.recordRequest(
            route: Self.route(context.endpointPath), method: request.method.rawValue, status: Int(response.status.code),
            duration: ContinuousClock.now - start
        )
        return response
    }

    /// The matched pattern, or `unmatched`: Hummingbird names its not-found responder `NotFound`,
    /// which is no route of ours.
    static func route(_ endpointPath: String?) -> String {
        guard let endpointPath, endpointPath.hasPrefix("/") else { return "unmatched" }
        return endpointPath
    }
}
