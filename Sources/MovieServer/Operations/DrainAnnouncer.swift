import Logging
import ServiceLifecycle

/// The first service to hear of a graceful shutdown: it flips readiness to "draining" and holds
/// the shutdown for `delay`, while the server still accepts requests, so that a load balancer
/// polling `/health/ready` stops sending traffic before the listener closes.
///
/// When the group is cancelled instead (the listener could not bind, or failed), there is
/// nothing to drain and it says nothing.
struct DrainAnnouncer: Service {
    let readiness: Readiness
    let delay: Duration
    let logger: Logger

    func run() async throws {
        do {
            try await gracefulShutdown()
        } catch {
            return
        }
        guard !Task.isCancelled else { return }
        readiness.beginDraining()
        logger.notice("shutting down: reporting not ready for \(delay), then finishing the requests in flight")
        if delay > .zero { try? await Task.sleep(for: delay) }
    }
}
