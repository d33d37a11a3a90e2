import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A program started with its standard input from /dev/null and its output and errors on two
/// pipes this process reads; a thread of its own waits for it to exit.
public final class SpawnedProcess: @unchecked Sendable {
    public let processIdentifier: pid_t
    /// The read ends of the program's standard output and standard error; whoever reads them to
    /// the end closes them.
    public let output: Int32
    public let error: Int32
    private let lock = NSLock()
    private var termination: Termination?
    private var waiters: [CheckedContinuation<Termination, Never>] = []

    public init(_ executable: URL, _ arguments: [String], environment: [String: String]) throws {
        let outputPipe = try PosixSpawn.makePipe()
        let errorPipe: (read: Int32, write: Int32)
        do { errorPipe = try PosixSpawn.makePipe() } catch {
            [outputPipe.read, outputPipe.write].forEach { close($0) }
            throw error
        }
        defer { [outputPipe.write, errorPipe.write].forEach { close($0) } }
        do {
            processIdentifier = try PosixSpawn.start(executable.path, [executable.path] + arguments, environment: environment) { actions in
                posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
                posix_spawn_file_actions_adddup2(&actions, outputPipe.write, 1)
                posix_spawn_file_actions_adddup2(&actions, errorPipe.write, 2)
            }
        } catch {
            [outputPipe.read, errorPipe.read].forEach { close($0) }
            throw error
        }
        output = outputPipe.read
        self.error = errorPipe.read
        let pid = processIdentifier
        Thread.detachNewThread { [self] in
            finish(PosixSpawn.waitForExit(pid))
        }
    }

    public var isRunning: Bool {
        lock.withLock { termination == nil }
    }

    /// How the program ended, once it has.
    public var exited: Termination? {
        lock.withLock { termination }
    }

    public func send(_ signal: Int32) {
        guard isRunning else { return }
        kill(processIdentifier, signal)
    }

    /// Waits until the program has exited.
    public func exit() async -> Termination {
        await withCheckedContinuation { continuation in
            let known: Termination? = lock.withLock {
                if let termination { return termination }
                waiters.append(continuation)
                return nil
            }
            if let known { continuation.resume(returning: known) }
        }
    }

    private func finish(_ ending: Termination) {
        let waiting = lock.withLock {
            termination = ending
            defer { waiters.removeAll() }
            return waiters
        }
        waiting.forEach { $0.resume(returning: ending) }
    }
}
