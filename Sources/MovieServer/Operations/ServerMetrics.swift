import CoreMetrics
import Foundation
import Metrics
import NIOConcurrencyHelpers
import Prometheus

/// The server's metrics, recorded through swift-metrics into a Prometheus registry of this
/// server's own (so that servers in one process do not mix their counts), and written out in
/// the Prometheus text format for `GET /metrics`.
///
/// Requests are counted by route pattern (never by raw path, which a client could vary without
/// end), method and status, with a latency histogram per route; token grants by type; database
/// errors by operation.
public final class ServerMetrics: Sendable {
    private let registry: PrometheusCollectorRegistry
    private let factory: PrometheusMetricsFactory
    private let requestCounters = NIOLockedValueBox<[RequestKey: (CoreMetrics.Counter, CoreMetrics.Timer)]>([:])

    private struct RequestKey: Hashable {
        let route: String
        let method: String
        let status: Int
    }

    public init() {
        registry = PrometheusCollectorRegistry()
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.defaultDurationHistogramBuckets = [
            .microseconds(100), .microseconds(250), .microseconds(500), .milliseconds(1), .milliseconds(2.5),
            .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100),
            .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2.5), .seconds(5), .seconds(10),
        ]
        self.factory = factory
    }

    func recordRequest(route: String, method: String, status: Int, duration: Duration) {
        let key = RequestKey(route: route, method: method, status: status)
        let (counter, timer) = requestCounters.withLockedValue { counters in
            if let existing = counters[key] { return existing }
            let dimensions = [("route", route), ("method", method), ("status", String(status))]
            let made = (
                CoreMetrics.Counter(label: "marquee_http_requests_total", dimensions: dimensions, factory: factory),
                CoreMetrics.Timer(
                    label: "marquee_http_request_duration_seconds", dimensions: [("route", route), ("method", method)],
                    preferredDisplayUnit: .seconds, factory: factory
                )
            )
            counters[key] = made
            return made
        }
        counter.increment()
        timer.recordNanoseconds(Int64(duration.components.seconds) * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000)
    }

    func recordGrant(_ type: GrantType) {
        CoreMetrics.Counter(label: "marquee_token_grants_total", dimensions: [("grant_type", type.rawValue)], factory: factory).increment()
    }

    func recordRefusedGrant() {
        CoreMetrics.Counter(label: "marquee_token_refusals_total", factory: factory).increment()
    }

    func recordDatabaseError(operation: String) {
        CoreMetrics.Counter(label: "marquee_database_errors_total", dimensions: [("operation", operation)], factory: factory).increment()
    }

    /// Every metric in the Prometheus text exposition format.
    public func exposition() -> String {
        registry.emitToString()
    }
}
