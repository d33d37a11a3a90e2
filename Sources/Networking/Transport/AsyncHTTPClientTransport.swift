import AsyncHTTPClient
import Foundation
import HTTPTypes
import NIOCore
import NIOHTTP1
import Tracing

/// The live ``Transport``: one shared AsyncHTTPClient `HTTPClient` with its connection pool.
///
/// Create one per process and call ``shutdown()`` before the process ends. Connection failures
/// are reported at once (the pool does not silently retry them): retrying is a policy that
/// belongs to an ``Interceptor``. Redirects are followed here, up to five, and a request's
/// ``APIRequest/sensitiveHeaderNames`` are dropped as soon as a redirect leaves its origin.
public final class AsyncHTTPClientTransport: Transport {
    /// The settings of the live transport.
    public struct Configuration: Sendable {
        /// How long opening a connection may take.
        public var connectTimeout: Duration = .seconds(5)
        /// The largest response body accepted; a larger one fails with ``NetworkError/bodyTooLarge(limit:)``.
        public var maximumBodySize: Int = 10 * 1024 * 1024
        /// How many redirects one request may follow.
        public var maximumRedirects: Int = 5
        /// Whether each request is a client span of the tracer bootstrapped in
        /// swift-distributed-tracing's `InstrumentationSystem`, its context sent as `traceparent`
        /// (`RequestSpan`). On when a tracer was bootstrapped before the transport was made (Marquee
        /// does when the `OTEL_*` environment asks for traces); off otherwise, as a span costs about
        /// 5% of a loopback request even when nothing records it.
        public var emitsTracingSpans = !(InstrumentationSystem.tracer is NoOpTracer)

        public init() {}
    }

    let client: HTTPClient
    private let configuration: Configuration

    public init(configuration: Configuration = Configuration()) {
        var clientConfiguration = HTTPClient.Configuration()
        clientConfiguration.timeout.connect = TimeAmount(configuration.connectTimeout)
        clientConfiguration.connectionPool.retryConnectionEstablishment = false
        // A kept-alive connection is let go before a server would close it (Marquee's after 60 s,
        // nginx's after 75 s): a request sent as the server closes would be answered with a reset.
        clientConfiguration.connectionPool.idleTimeout = .seconds(30)
        clientConfiguration.redirectConfiguration = .disallow
        clientConfiguration.decompression = .enabled(limit: .size(configuration.maximumBodySize))
        // The spans are this transport's own (RequestSpan): AsyncHTTPClient's, on the API used
        // here, would not send the trace on.
        clientConfiguration.tracing.tracer = nil
        self.client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: clientConfiguration)
        self.configuration = configuration
    }

    /// Closes every connection. The transport cannot send after this.
    public func shutdown() async throws {
        try await client.shutdown()
    }

    public func send(_ request: APIRequest) async throws(NetworkError) -> APIResponse {
        guard configuration.emitsTracingSpans else { return try await sendFollowingRedirects(request) }
        return try await RequestSpan.around(request) { traced throws(NetworkError) in try await sendFollowingRedirects(traced) }
    }

    private func sendFollowingRedirects(_ request: APIRequest) async throws(NetworkError) -> APIResponse {
        var current = request
        for _ in 0...configuration.maximumRedirects {
            let response = try await sendOnce(current)
            guard let next = try Redirection.follow(response, from: current) else { return response }
            current = next
        }
        throw .redirectRefused("more than \(configuration.maximumRedirects) redirects in a row")
    }

    /// One exchange, head and body, within the request's timeout. The body is gathered on the
    /// connection's event loop, and the timeout is AsyncHTTPClient's deadline for the whole task,
    /// so a body that trickles in is cut off at the deadline too, with no task of our own racing it.
    private func sendOnce(_ request: APIRequest) async throws(NetworkError) -> APIResponse {
        let limit = configuration.maximumBodySize
        do {
            let clientRequest = try Self.clientRequest(for: request)
            let task = client.execute(
                request: clientRequest,
                delegate: ResponseAccumulator(request: clientRequest, maxBodySize: limit),
                deadline: .now() + TimeAmount(request.timeout)
            )
            let response = try await withTaskCancellationHandler {
                try await task.futureResult.get()
            } onCancel: {
                task.cancel()
            }
            return APIResponse(
                status: HTTPResponse.Status(code: Int(response.status.code)),
                headerFields: Self.fields(of: response.headers),
                body: response.body.map { Data($0.readableBytesView) } ?? Data()
            )
        } catch is ResponseAccumulator.ResponseTooBigError {
            throw .bodyTooLarge(limit: limit)
        } catch {
            throw TransportErrorMapping.networkError(for: error, request: request, bodyLimit: limit)
        }
    }

    private static func clientRequest(for request: APIRequest) throws -> HTTPClient.Request {
        var headers = HTTPHeaders()
        for field in request.headerFields {
            headers.add(name: field.name.rawName, value: field.value)
        }
        return try HTTPClient.Request(
            url: request.url,
            method: HTTPMethod(rawValue: request.method.rawValue),
            headers: headers,
            body: request.body.map { .data($0) }
        )
    }

    private static func fields(of headers: HTTPHeaders) -> HTTPFields {
        var fields = HTTPFields()
        for (name, value) in headers {
            if let fieldName = HTTPField.Name(name) {
                fields.append(HTTPField(name: fieldName, value: value))
            }
        }
        return fields
    }
}

extension TimeAmount {
    init(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        self = .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}
