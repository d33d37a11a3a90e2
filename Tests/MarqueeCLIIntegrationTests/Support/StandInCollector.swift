import Foundation
import Hummingbird
import NIOConcurrencyHelpers
import NIOCore

/// A stand-in OpenTelemetry collector: an OTLP/HTTP receiver on a loopback port that keeps the
/// spans posted to `/v1/traces` in the JSON encoding (`OTEL_EXPORTER_OTLP_PROTOCOL=http/json`).
final class StandInCollector: Sendable {
    /// One span as the collector received it, its ids in hex.
    struct Span: Sendable, CustomStringConvertible {
        let service: String
        let traceID: String
        let spanID: String
        let parentSpanID: String
        let name: String
        let kind: Int
        let attributes: [String: String]

        var description: String { "\(service): \(name) [\(spanID) ← \(parentSpanID)] \(attributes)" }
    }

    private let task: Task<Void, any Error>
    let port: Int

    /// Starts listening; ``stop()`` ends it.
    static func start() async throws -> StandInCollector {
        let bound = AsyncStream.makeStream(of: Int.self)
        let spans = NIOLockedValueBox<[Span]>([])
        let posts = NIOLockedValueBox(0)
        let router = Router()
        router.post("v1/traces") { request, _ -> Response in
            let body = try await request.body.collect(upTo: 16 << 20)
            posts.withLockedValue { $0 += 1 }
            spans.withLockedValue { $0 += Self.spans(in: Data(body.readableBytesView)) }
            return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: "{}")))
        }
        let app = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in bound.continuation.yield(channel.localAddress?.port ?? 0) }
        )
        let task = Task { try await app.runService(gracefulShutdownSignals: []) }
        var iterator = bound.stream.makeAsyncIterator()
        let port = await iterator.next() ?? 0
        return StandInCollector(port: port, task: task, received: spans, posts: posts)
    }

    private init(port: Int, task: Task<Void, any Error>, received: NIOLockedValueBox<[Span]>, posts: NIOLockedValueBox<Int>) {
        self.port = port
        self.task = task
        self.receivedBox = received
        self.postsBox = posts
    }

    private let receivedBox: NIOLockedValueBox<[Span]>
    private let postsBox: NIOLockedValueBox<Int>

    var spans: [Span] { receivedBox.withLockedValue { $0 } }
    /// How many exports were posted, whatever they held.
    var exports: Int { postsBox.withLockedValue { $0 } }

    /// The environment that points a `marquee` process at this collector.
    var environment: [String: String] {
        ["OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:\(port)", "OTEL_EXPORTER_OTLP_PROTOCOL": "http/json", "OTEL_BSP_SCHEDULE_DELAY": "50"]
    }

    /// Waits until the spans received satisfy `done` (at most `limit`); the spans then.
    func spans(within limit: Duration = .seconds(30), until done: ([Span]) -> Bool) async throws -> [Span] {
        let deadline = ContinuousClock.now + limit
        while ContinuousClock.now < deadline {
            let now = spans
            if done(now) { return now }
            try await Task.sleep(for: .milliseconds(20))
        }
        return spans
    }

    func stop() {
        task.cancel()
    }

    /// The spans of an OTLP JSON export (`ExportTraceServiceRequest`).
    private static func spans(in body: Data) -> [Span] {
        guard let export = try? JSONSerialization.jsonObject(with: body) as? [String: Any] else { return [] }
        var found: [Span] = []
        for resourceSpans in export["resourceSpans"] as? [[String: Any]] ?? [] {
            let resource = attributes(of: (resourceSpans["resource"] as? [String: Any])?["attributes"])
            for scope in resourceSpans["scopeSpans"] as? [[String: Any]] ?? [] {
                for span in scope["spans"] as? [[String: Any]] ?? [] {
                    found.append(Span(
                        service: resource["service.name"] ?? "",
                        traceID: hex(span["traceId"]), spanID: hex(span["spanId"]), parentSpanID: hex(span["parentSpanId"]),
                        name: span["name"] as? String ?? "", kind: kind(span["kind"]), attributes: attributes(of: span["attributes"])
                    ))
                }
            }
        }
        return found
    }

    private static func attributes(of value: Any?) -> [String: String] {
        var attributes: [String: String] = [:]
        for attribute in value as? [[String: Any]] ?? [] {
            guard let key = attribute["key"] as? String, let value = attribute["value"] as? [String: Any], let first = value.first else { continue }
            attributes[key] = "\(first.value)"
        }
        return attributes
    }

    /// OTLP's JSON writes ids in hex; a protobuf JSON writer may write them in base64.
    private static func hex(_ value: Any?) -> String {
        guard let text = value as? String, !text.isEmpty else { return "" }
        if text.count == 32 || text.count == 16, text.allSatisfy(\.isHexDigit) { return text.lowercased() }
        guard let bytes = Data(base64Encoded: text) else { return text }
        return bytes.map { String(format: "%02x", $0) }.joined()
    }

    private static func kind(_ value: Any?) -> Int {
        if let number = value as? Int { return number }
        switch value as? String {
        case "SPAN_KIND_INTERNAL": return 1
        case "SPAN_KIND_SERVER": return 2
        case "SPAN_KIND_CLIENT": return 3
        default: return 0
        }
    }
}
