import NIOConcurrencyHelpers

/// Runs an operation that may not answer cancellation promptly (a query waiting for a database
/// that went away) and stops waiting for it after a time limit: the caller gets
/// ``Exceeded`` at the limit, and the operation is cancelled and left to finish alone.
enum Deadline {
    struct Exceeded: Error {}

    static func run<T: Sendable>(
        within limit: Duration,
        _ operation: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        let state = NIOLockedValueBox(State<T>())
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
                let work = Task {
                    let result: Result<T, any Error>
                    do { result = .success(try await operation()) } catch { result = .failure(error) }
                    state.withLockedValue { $0.finish(with: result) }?.resume(with: result)
                }
                let timer = Task {
                    try await Task.sleep(for: limit)
                    state.withLockedValue { $0.finish(with: .failure(Exceeded())) }?.resume(throwing: Exceeded())
                    work.cancel()
                }
                state.withLockedValue { $0.start(continuation, work: work, timer: timer) }
            }
        } onCancel: {
            state.withLockedValue { $0.cancel() }
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

        mutating func start(_ continuation: CheckedContinuation<T, any Error>, work: Task<Void, Never>, timer: Task<Void, any Error>) {
            if isDone {
                timer.cancel()
                if let early { continuation.resume(with: early) }
                return
            }
            self.continuation = continuation
            self.work = work
            self.timer = timer
            if isCancelled { work.cancel() }
        }

        /// The continuation to resume with `result`, if nobody has yet.
        mutating func finish(with result: Result<T, any Error>) -> CheckedContinuation<T, any Error>? {
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

        mutating func cancel() {
            isCancelled = true
            work?.cancel()
        }
    }
}
