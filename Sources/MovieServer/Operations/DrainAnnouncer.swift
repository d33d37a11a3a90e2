import Logging
import ServiceLifecycle

/// The first service to hear of a graceful shutdown: it flips readiness to "draining" and holds
/// the shutdown for `delay`, while the server still accepts requests, so that a load balancer
/// polling `/health/ready` stops sending traffic before the listener closes.
struct DrainAnnouncer: Service {
    let readiness: Readiness
    let delay: Duration
    let logger: Logger

    func run() async throws {
        try? await gracefulShutdown()
        readiness.beginDraining()
        logger.notice("shutting down: reporting not ready for \(delay), then finishing the requests in flight")
        if delay > .zero { try? await Task.sleep(for: delay) }
    }
}
