import Foundation

/// Holds callers until a test opens it; reports every caller that gave up by cancellation.
actor Gate {
    private var isOpen = false
    private var waiters: [UUID: CheckedContinuation<Void, any Error>] = [:]
    private var cancelledBeforeWaiting: Set<UUID> = []
    private let cancellationSink: AsyncStream<Void>.Continuation
    /// One element per waiter cancelled while the gate was closed.
    nonisolated let cancellations: AsyncStream<Void>

    init() {
        (cancellations, cancellationSink) = AsyncStream<Void>.makeStream()
    }

    func open() {
        isOpen = true
        waiters.values.forEach { $0.resume() }
        waiters = [:]
    }

    func pass() async throws {
        guard !isOpen else { return }
        let id = UUID()
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                if cancelledBeforeWaiting.remove(id) != nil {
                    cancellationSink.yield()
                    continuation.resume(throwing: CancellationError())
                } else {
                    waiters[id] = continuation
                }
            }
        } onCancel: {
            Task { await self.cancel(id) }
        }
    }

    private func cancel(_ id: UUID) {
        guard let continuation = waiters.removeValue(forKey: id) else {
            cancelledBeforeWaiting.insert(id)
            return
        }
        cancellationSink.yield()
        continuation.resume(throwing: CancellationError())
    }
}
