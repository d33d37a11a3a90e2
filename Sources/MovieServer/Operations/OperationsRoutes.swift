import Hummingbird

/// Endpoints for operators and load balancers: `GET /health/live` (the process answers),
/// `GET /health/ready` (it should get traffic: not draining, its database answers within
/// ``readinessTimeout``, a second unless the server is told otherwise, and its search index is
/// ready since the start), and `GET /metrics` (Prometheus text format).
struct OperationsRoutes: Sendable {
    let storage: any ServerStorage
    let readiness: Readiness
    let metrics: ServerMetrics
    let readinessTimeout: Duration

    func register<Context: RequestContext>(on router: some RouterMethods<Context>) {
        router.get("health/live") { _, _ in Self.status("live", ok: true) }
        router.get("health/ready") { _, _ in
            if readiness.isDraining { return Self.status("draining", ok: false) }
            guard await storageAnswers() else { return Self.status("database unavailable", ok: false) }
            guard storage.isSearchReady else {
                storage.prepareSearch()
                return Self.status("search index not ready", ok: false)
            }
            return Self.status("ready", ok: true)
        }
        router.get("metrics") { _, _ in
            Response(
                status: .ok,
                headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8", .cacheControl: "no-store"],
                body: .init(byteBuffer: ByteBuffer(string: metrics.exposition()))
            )
        }
    }

    /// Whether storage answers within ``readinessTimeout``; a check still waiting then is
    /// abandoned, not awaited, so the probe always answers in time.
    private func storageAnswers() async -> Bool {
        let storage = storage
        return (try? await Deadline.run(within: readinessTimeout) { try await storage.checkHealth() }) != nil
    }

    private static func status(_ text: String, ok: Bool) -> Response {
        Response(
            status: ok ? .ok : .serviceUnavailable,
            headers: [.contentType: "application/json", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(string: #"{"status":"\#(text)"}"#))
        )
    }
}
