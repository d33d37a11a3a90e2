import Foundation

/// An advisory lock on a file (`flock`), shared by every process that uses the same lock file:
/// what keeps processes that read, change and write one file from overwriting each other.
///
/// The lock file is created when missing (mode 0600) and never removed; it holds no data.
/// Waiting polls with a non-blocking `flock`, so neither a thread nor a task is stuck in the
/// kernel: an async waiter can be cancelled, and a wait longer than its timeout fails.
public struct FileLock: Sendable {
    /// Why the lock could not be taken.
    public enum Failure: Error, Sendable, Hashable, CustomStringConvertible {
        case cannotOpen(path: String, reason: String)
        case timedOut(path: String, seconds: Int)
        case cancelled(path: String)

        public var description: String {
            switch self {
            case let .cannotOpen(path, reason): "cannot open the lock file \(path) (\(reason))"
            case let .timedOut(path, seconds): "another process has held the lock \(path) for more than \(seconds) seconds"
            case let .cancelled(path): "waiting for the lock \(path) was cancelled"
            }
        }
    }

    public let url: URL
    public let timeout: Duration

    public init(url: URL, timeout: Duration = .seconds(30)) {
        self.url = url
        self.timeout = timeout
    }

    /// Runs `body` while holding the lock, waiting for it without blocking the caller's thread.
    public func withLock<Result>(
        isolation: isolated (any Actor)? = #isolation,
        _ body: () async throws -> Result
    ) async throws -> Result {
        let descriptor = try open()
        defer { close(descriptor) }
        let deadline = ContinuousClock.now + timeout
        var pause = Duration.milliseconds(2)
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR else { throw Failure.cannotOpen(path: url.path, reason: Self.reason(errno)) }
            guard ContinuousClock.now < deadline else { throw Failure.timedOut(path: url.path, seconds: Int(timeout.components.seconds)) }
            do { try await Task.sleep(for: pause) } catch { throw Failure.cancelled(path: url.path) }
            pause = min(pause * 2, .milliseconds(50))
        }
        return try await body()
    }

    /// Runs `body` while holding the lock, for synchronous callers; the wait sleeps the thread.
    public func withLockBlocking<Result>(_ body: () throws -> Result) throws -> Result {
        let descriptor = try open()
        defer { close(descriptor) }
        let deadline = ContinuousClock.now + timeout
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR else { throw Failure.cannotOpen(path: url.path, reason: Self.reason(errno)) }
            guard ContinuousClock.now < deadline else { throw Failure.timedOut(path: url.path, seconds: Int(timeout.components.seconds)) }
            usleep(5_000)
        }
        return try body()
    }

    private func open() throws(Failure) -> Int32 {
        let descriptor = Foundation.open(url.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw .cannotOpen(path: url.path, reason: Self.reason(errno)) }
        return descriptor
    }

    private static func reason(_ code: Int32) -> String {
        String(cString: strerror(code)).lowercased()
    }
}
