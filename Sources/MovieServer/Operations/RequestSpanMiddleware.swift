import HTTPTypes
import Hummingbird
import Tracing

/// Makes each routed request a server span of the process's tracer, by OpenTelemetry's semantic
/// conventions for HTTP, continuing the trace its `traceparent` names. The query is recorded as
/// ``RequestSpans`` redacts it, never as sent; no header is recorded.
struct RequestSpanMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var parent = ServiceContext.current ?? .topLevel
        InstrumentationSystem.instrument.extract(request.headers, into: &parent, using: HeaderExtractor())
        let span = InstrumentationSystem.tracer.startSpan("HTTP \(request.method.rawValue) route not found", context: parent, ofKind: .server)
        span.updateAttributes { attributes in
            attributes["http.request.method"] = request.method.rawValue
            attributes["url.path"] = request.uri.path
            if let query = request.uri.query { attributes["url.query"] = RequestSpans.redactedQuery(query[...]) }
            attributes["user_agent.original"] = request.headers[.userAgent]
            attributes["http.request.body.size"] = request.headers[.contentLength].flatMap { Int($0) }
            if let peer = (context as? RoutedRequestContext)?.remoteAddress {
                attributes["net.sock.peer.addr"] = peer.ipAddress
                attributes["net.sock.peer.port"] = peer.port
            }
        }
        do {
            var response = try await ServiceContext.$current.withValue(span.context) {
                try await next(request, context)
            }
            if let route = context.endpointPath { span.operationName = route }
            span.updateAttributes { attributes in
                attributes["http.route"] = context.endpointPath
                attributes["http.response.status_code"] = Int(response.status.code)
                attributes["http.response.body.size"] = response.body.contentLength
            }
            let ending = SpanEnding(span), body = response.body
            response.body = ResponseBody(contentLength: body.contentLength) { writer in
                defer { ending.end() }
                try await body.write(writer)
            }
            return response
        } catch {
            if let route = context.endpointPath { span.operationName = route }
            let status = (error as? any HTTPResponseError)?.status.code ?? 500
            span.updateAttributes { attributes in
                attributes["http.route"] = context.endpointPath
                attributes["http.response.status_code"] = status
            }
            if status >= 500 { span.setStatus(SpanStatus(code: .error)) }
            span.recordError(error)
            span.end()
            throw error
        }
    }
}

/// Ends a request's span once its body is written, or when the answer is dropped unwritten.
private final class SpanEnding: @unchecked Sendable {
    private var span: (any Span)?

    init(_ span: any Span) {
        self.span = span
    }

    func end() {
        span?.end()
        span = nil
    }

    deinit {
        span?.end()
    }
}

/// Reads a `traceparent` (and `tracestate`) from a request's headers.
private struct HeaderExtractor: Extractor {
    func extract(key name: String, from headers: HTTPFields) -> String? {
        HTTPField.Name(name).flatMap { headers[$0] }
    }
}
