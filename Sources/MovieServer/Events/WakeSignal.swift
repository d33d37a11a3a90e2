import NIOConcurrencyHelpers

/// Wakes one waiting task: a signal given while nobody waits is kept for the next wait, and
/// several signals before it count as one.
final class WakeSignal: Sendable {
    private struct State {
        var pending = false
        var waiter: CheckedContinuation<Void, Never>?
    }

    private let state = NIOLockedValueBox(State())

    func signal() {
        let waiter = state.withLockedValue { state -> CheckedContinuation<Void, Never>? in
            guard let waiter = state.waiter else {
                state.pending = true
                return nil
            }
            state.waiter = nil
            return waiter
        }
        waiter?.resume()
    }

    /// Returns at the next signal, or after `limit`.
    func wait(atMost limit: Duration) async {
        // A timer cancelled because a signal came first must not signal: its signal would be
        // kept, and the next wait would return at once (and the one after it, for ever).
        let timer = Task { [weak self] in
            do { try await Task.sleep(for: limit) } catch { return }
            self?.signal()
        }
        defer { timer.cancel() }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = state.withLockedValue { state in
                if state.pending {
                    state.pending = false
                    return true
                }
                state.waiter = continuation
                return false
            }
            if now { continuation.resume() }
        }
    }
}
