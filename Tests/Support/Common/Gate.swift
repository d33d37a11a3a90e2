import Foundation

/// Holds callers until a test opens it; reports every caller that gave up by cancellation.
public actor Gate {
    var isOpen = false
    private var waiters: [UUID: CheckedContinuation<Void, any Error>] = [:]
    private var cancelledBeforeWaiting: Set<UUID> = []
    private let cancellationSink: AsyncStream<Void>.Continuation
    private let arrivalSink: AsyncStream<Void>.Continuation
    /// One element per waiter cancelled while the gate was closed.
    public nonisolated let cancellations: AsyncStream<Void>
    /// One element per caller that started waiting at the closed gate.
    public nonisolated let arrivals: AsyncStream<Void>

    public init() {
        (cancellations, cancellationSink) = AsyncStream<Void>.makeStream()
        (arrivals, arrivalSink) = AsyncStream<Void>.makeStream()
    }

    public func open() {
        isOpen = true
        waiters.values.forEach { $0.resume() }
        waiters = [:]
    }

    public func pass() async throws {
        guard !isOpen else { return }
        let id = UUID()
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                if cancelledBeforeWaiting.remove(id) != nil {
                    cancellationSink.yield()
                    continuation.resume(throwing: CancellationError())
                } else {
                    waiters[id] = continuation
                    arrivalSink.yield()
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

extension Gate {
    /// Closes the gate again: callers from now on wait for the next ``open()``.
    public func close() {
        isOpen = false
    }
}
