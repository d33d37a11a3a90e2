import NIOConcurrencyHelpers

/// Runs an operation that may not answer cancellation promptly (a query waiting for a database
/// that went away) and stops waiting for it after a time limit: the caller gets
/// ``Exceeded`` at the limit (or `CancellationError` at once when its task is cancelled), and
/// the operation is cancelled and left to finish alone.
package enum Deadline {
    package struct Exceeded: Error {
        package init() {}
    }

    /// Gives `operation` at most `limit` in all.
    package static func run<T: Sendable>(
        within limit: Duration,
        _ operation: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        try await run(idleLimit: limit) { _ in try await operation() }
    }

    /// Gives `operation` at most `idleLimit` between two calls of the `progress` closure it is
    /// handed, and `startLimit` (at least `idleLimit`) from its start to the first: a long import
    /// that keeps writing batches runs as long as it needs, one whose database stopped answering
    /// ends within `idleLimit`, and getting a connection on a busy machine may take longer.
    package static func run<T: Sendable>(
        idleLimit: Duration,
        startLimit: Duration = .zero,
        _ operation: @escaping @Sendable (_ progress: @escaping @Sendable () -> Void) async throws -> T
    ) async throws -> T {
        let state = NIOLockedValueBox(State<T>())
        let lastProgress = NIOLockedValueBox(ContinuousClock.now + max(.zero, startLimit - idleLimit))
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
                let work = Task {
                    let result: Result<T, any Error>
                    do {
                        result = .success(try await operation { lastProgress.withLockedValue { $0 = .now } })
                    } catch {
                        result = .failure(error)
                    }
                    state.withLockedValue { $0.finish(with: result) }?.resume(with: result)
                }
                let timer = Task {
                    while true {
                        let due = lastProgress.withLockedValue { $0 } + idleLimit
                        if ContinuousClock.now >= due { break }
                        try await Task.sleep(until: due)
                    }
                    state.withLockedValue { $0.finish(with: .failure(Exceeded())) }?.resume(throwing: Exceeded())
                    work.cancel()
                }
                state.withLockedValue { $0.start(continuation, work: work, timer: timer) }
            }
        } onCancel: {
            state.withLockedValue { $0.cancel() }?.resume(throwing: CancellationError())
        }
    }

    /// Whoever finishes first takes the continuation; the other finds it gone.
    private struct State<T: Sendable> {
        private var continuation: CheckedContinuation<T, any Error>?
        private var work: Task<Void, Never>?
        private var timer: Task<Void, any Error>?
        private var early: Result<T, any Error>?
        private var isDone = false
        private var isCancelled = false

        package mutating func start(_ continuation: CheckedContinuation<T, any Error>, work: Task<Void, Never>, timer: Task<Void, any Error>) {
            if isDone {
                timer.cancel()
                if isCancelled { work.cancel() }
                if let early { continuation.resume(with: early) }
                return
            }
            self.continuation = continuation
            self.work = work
            self.timer = timer
            if isCancelled { work.cancel() }
        }

        /// The continuation to resume with `result`, if nobody has yet.
        package mutating func finish(with result: Result<T, any Error>) -> CheckedContinuation<T, any Error>? {
            guard !isDone else { return nil }
            isDone = true
            timer?.cancel()
            guard let continuation else {
                early = result
                return nil
            }
            self.continuation = nil
            return continuation
        }

        /// Cancels the operation and returns the continuation to resume at once: a cancelled
        /// caller does not wait for an operation that may not answer cancellation.
        package mutating func cancel() -> CheckedContinuation<T, any Error>? {
            isCancelled = true
            work?.cancel()
            return finish(with: .failure(CancellationError()))
        }
    }
}

extension Duration {
    /// `5 s`, `0.25 s`: a limit as errors show it.
    package var secondsText: String {
        let seconds = Double(components.seconds) + Double(components.attoseconds) / 1e18
        return seconds == seconds.rounded() ? "\(Int(seconds)) s" : "\(seconds) s"
    }
}
