import Foundation
import HTTPTypes
import Tracing

/// A request as a client span of the process's tracer, by OpenTelemetry's conventions for HTTP
/// clients (`http.request.method`, `server.address`, `server.port`, `url.scheme`, `url.path`,
/// `http.response.status_code`), its context sent on as `traceparent` so that the server's span of
/// the request is its child. The query is not recorded: it may hold a search a person typed.
enum RequestSpan {
    static func around(_ request: APIRequest, _ send: (APIRequest) async throws(NetworkError) -> APIResponse) async throws(NetworkError) -> APIResponse {
        let span = InstrumentationSystem.tracer.startSpan(request.method.rawValue, context: ServiceContext.current ?? .topLevel, ofKind: .client)
        defer { span.end() }
        let (host, port) = request.hostAndPort
        span.updateAttributes { attributes in
            attributes["http.request.method"] = request.method.rawValue
            attributes["server.address"] = host
            attributes["server.port"] = port
            attributes["url.scheme"] = request.url.scheme ?? "http"
            attributes["url.path"] = request.url.path
        }
        var traced = request
        InstrumentationSystem.instrument.inject(span.context, into: &traced.headerFields, using: HTTPFieldsInjector())
        do {
            let response = try await send(traced)
            span.attributes["http.response.status_code"] = response.status.code
            if response.status.code >= 500 { span.setStatus(SpanStatus(code: .error)) }
            return response
        } catch {
            span.recordError(error)
            span.setStatus(SpanStatus(code: .error))
            throw error
        }
    }
}

/// Writes a span context's headers (`traceparent`, `tracestate`) into a request's fields.
private struct HTTPFieldsInjector: Injector {
    func inject(_ value: String, forKey key: String, into fields: inout HTTPFields) {
        guard let name = HTTPField.Name(key) else { return }
        fields[name] = value
    }
}
