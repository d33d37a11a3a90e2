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
    /// The answers counted and timed, by route, method and status.
    let requests: RequestTallies
    private let databaseFailures: StorageFailures?

    /// Metrics of a server, with the failures its storage counted.
    public convenience init(reporting databaseFailures: StorageFailures) {
        self.init(databaseFailures: databaseFailures)
    }

    /// Metrics without a storage's, for a part tried alone.
    public convenience init() {
        self.init(databaseFailures: nil)
    }

    private init(databaseFailures: StorageFailures?) {
        self.databaseFailures = databaseFailures
        registry = PrometheusCollectorRegistry()
        factory = PrometheusMetricsFactory(registry: registry)
        requests = RequestTallies(bounds: [
            .microseconds(100), .microseconds(250), .microseconds(500), .milliseconds(1), .milliseconds(2.5),
            .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100),
            .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2.5), .seconds(5), .seconds(10),
        ])
    }

    /// Counts and times an answer of the router or the event streams.
    func recordRequest(route: String, method: String, status: Int, duration: Duration) {
        requests.shared.record(requests.series(route: route, method: method, status: status), duration: duration)
    }

    /// The response cache's hits, misses and evictions, and the bytes it holds.
    func responseCacheInstruments() -> (hits: CoreMetrics.Counter, misses: CoreMetrics.Counter, evictions: CoreMetrics.Counter, bytes: CoreMetrics.Gauge) {
        (
            CoreMetrics.Counter(label: "marquee_response_cache_hits_total", factory: factory),
            CoreMetrics.Counter(label: "marquee_response_cache_misses_total", factory: factory),
            CoreMetrics.Counter(label: "marquee_response_cache_evictions_total", factory: factory),
            CoreMetrics.Gauge(label: "marquee_response_cache_bytes", factory: factory)
        )
    }

    func recordGrant(_ type: GrantType) {
        CoreMetrics.Counter(label: "marquee_token_grants_total", dimensions: [("grant_type", type.rawValue)], factory: factory).increment()
    }

    func recordRefusedGrant() {
        CoreMetrics.Counter(label: "marquee_token_refusals_total", factory: factory).increment()
    }

    /// Every metric in the Prometheus text exposition format.
    public func exposition() -> String {
        registry.emitToString() + requests.exposition() + databaseFailureExposition()
    }

    private func databaseFailureExposition() -> String {
        guard let counts = databaseFailures?.byOperation, !counts.isEmpty else { return "" }
        let name = "marquee_database_errors_total"
        return counts.sorted { $0.key < $1.key }.reduce("# TYPE \(name) counter\n") { text, count in
            text + "\(name){operation=\"\(count.key)\"} \(count.value)\n"
        }
    }
}
