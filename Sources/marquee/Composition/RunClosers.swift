import Synchronization

/// What the container opened this run that must be closed at its end (the HTTP client's
/// connections), each recorded by the registration that made it, and closed once.
final class RunClosers: Sendable {
    private let closers = Mutex<[@Sendable () async throws -> Void]>([])

    func add(_ close: @escaping @Sendable () async throws -> Void) {
        closers.withLock { $0.append(close) }
    }

    /// Closes everything recorded, the last made first; a failure to close is not the run's.
    func closeAll() async {
        let all = closers.withLock { closers in
            defer { closers = [] }
            return closers
        }
        for close in all.reversed() { try? await close() }
    }
}
