import Foundation
import Subprocess
import Testing

/// A process left running, whose standard output and error are read line by line.
///
/// It runs inside a swift-subprocess `run` (in a task of its own), which encloses its life: the
/// body of that `run` reads both streams to their end, and the `run` returns once the process has
/// exited. Subprocess starts it as a shell would: standard input from /dev/null, no descriptor of
/// the test process, every signal unblocked and at its default; here also in a process group of
/// its own (`PlatformOptions.ownProcessGroup`).
public final class ChildProcess: @unchecked Sendable {
    private let state = ProcessState()
    private var outputLines: AsyncStream<String>.Iterator
    private var errorLines: AsyncStream<String>.Iterator
    private let transcript = Transcript()
    private let name: String

    /// The program is not there, or may not be run.
    public struct NotExecutable: Error, CustomStringConvertible {
        public let path: String
        public var description: String { "\(path) is not an executable file" }
    }

    /// Starts `executable` with `arguments` and returns while it runs. Subprocess starts it an
    /// instant later, on a task of its own: a signal sent meanwhile is delivered once it has.
    public init(executable: URL, arguments: [String], environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        name = ([executable.lastPathComponent] + arguments).joined(separator: " ")
        guard FileManager.default.isExecutableFile(atPath: executable.path) else { throw NotExecutable(path: executable.path) }
        let (output, outputContinuation) = AsyncStream<String>.makeStream()
        let (errors, errorContinuation) = AsyncStream<String>.makeStream()
        outputLines = output.makeAsyncIterator()
        errorLines = errors.makeAsyncIterator()
        Task { [state, transcript, name] in
            do {
                let result = try await Subprocess.run(
                    .path(.init(executable.path)), arguments: Arguments(arguments), environment: .exactly(environment),
                    platformOptions: .ownProcessGroup, input: .none, output: .sequence, error: .sequence
                ) { execution in
                    state.started(execution.processIdentifier.value) { try? execution.send(signal: Signal(rawValue: $0)) }
                    async let outputRead: Void = ChildProcess.forward(execution.standardOutput, to: outputContinuation, transcript: transcript)
                    async let errorsRead: Void = ChildProcess.forward(execution.standardError, to: errorContinuation, transcript: transcript)
                    _ = await (outputRead, errorsRead)
                    state.streamsClosed()
                }
                state.finish(Termination(result.terminationStatus))
            } catch {
                Issue.record("could not run '\(name)': \(error)")
                outputContinuation.finish()
                errorContinuation.finish()
                state.finish(Termination(status: 127, reason: .exit))
            }
        }
    }

    /// The next line on standard output, or `nil` once the process has closed it.
    public func nextOutputLine() async -> String? {
        await outputLines.next()
    }

    /// The next line on standard output that contains `text`, or `nil` once the process has closed it.
    public func nextOutputLine(containing text: String) async -> String? {
        while let line = await outputLines.next() {
            if line.contains(text) { return line }
        }
        return nil
    }

    /// The next line on standard error that contains `text`, or `nil` once the process has closed it.
    public func nextErrorLine(containing text: String) async -> String? {
        while let line = await errorLines.next() {
            if line.contains(text) { return line }
        }
        return nil
    }

    /// Sends `signal` (SIGINT by default, as Ctrl-C does) and waits for the exit status, at most
    /// `timeLimit` (see ``waitForExit(within:)``).
    public func signal(_ signal: Int32 = SIGINT, within timeLimit: Duration = .seconds(60)) async -> Int32 {
        state.send(signal)
        return await waitForExit(within: timeLimit)
    }

    /// Sends `signal` and returns at once, while the process handles it.
    public func send(_ signal: Int32) {
        state.send(signal)
    }

    public var isRunning: Bool { state.termination == nil }

    /// The process's id while it runs (`nil` before it started and once it ended).
    public var processID: Int32? { state.processID }

    /// Waits for the process to exit and returns its exit status, or the number of the signal that
    /// ended it. A process still running after `timeLimit` fails the test with the last lines it
    /// printed and is killed, so no test can hang CI.
    public func waitForExit(within timeLimit: Duration = .seconds(60)) async -> Int32 {
        let watchdog = Task { [name, transcript, state] in
            try await Task.sleep(for: timeLimit)
            guard state.termination == nil else { return }
            Issue.record("'\(name)' did not exit within \(timeLimit); it was killed. Its last output:\n\(transcript.text)")
            state.send(SIGKILL)
        }
        defer { watchdog.cancel() }
        return await state.exit().status
    }

    /// The last lines the process printed on either stream, for a failure message.
    public var lastOutput: String { transcript.text }

    /// How the process ended (`nil` while it runs).
    public var termination: Termination? { state.termination }

    /// Yields the lines of `output` until its end: when the process closes it, or exits (the
    /// stream ends then even if a process it started keeps it open).
    private static func forward(_ output: SubprocessOutputSequence, to lines: AsyncStream<String>.Continuation, transcript: Transcript) async {
        do {
            for try await line in output.strings(separatedBy: .unicodeScalarSequence("\n".unicodeScalars), bufferingPolicy: .unbounded) {
                transcript.add(line)
                lines.yield(line)
            }
        } catch {
            transcript.add("(reading stopped: \(error))")
        }
        lines.finish()
    }
}

/// How a program ended: its exit status, or the signal that ended it.
public struct Termination: Sendable, Equatable {
    public enum Reason: Sendable { case exit, uncaughtSignal }

    /// The exit status, or the number of the signal when ``reason`` is `.uncaughtSignal`.
    public let status: Int32
    public let reason: Reason

    public init(status: Int32, reason: Reason) {
        self.status = status
        self.reason = reason
    }

    init(_ status: TerminationStatus) {
        switch status {
        case .exited(let code): self.init(status: Int32(code), reason: .exit)
        case .signaled(let signal): self.init(status: Int32(signal), reason: .uncaughtSignal)
        }
    }

    /// As a shell reports it: the exit status, or 128 + the signal.
    public var shellStatus: Int32 { reason == .exit ? status : 128 + status }
}

extension PlatformOptions {
    /// A process group of its own, as a shell gives each job: a signal to the group of the test
    /// process (Ctrl-C where `swift test` runs) does not reach the program, and one to its group
    /// reaches nothing of the tests.
    static var ownProcessGroup: PlatformOptions {
        var options = PlatformOptions()
        options.processGroupID = 0
        return options
    }
}

extension Subprocess.Environment {
    /// These variables and no others.
    static func exactly(_ variables: [String: String]) -> Self {
        .custom(Dictionary(uniqueKeysWithValues: variables.compactMap { name, value in Key(rawValue: name).map { ($0, value) } }))
    }
}

/// What is known of the process: how to signal it while it runs, and how it ended.
private final class ProcessState: @unchecked Sendable {
    private enum Phase {
        /// Not started yet: the signals sent meanwhile.
        case starting(pending: [Int32])
        /// Inside the body of Subprocess's `run`, whose `Execution` signals it (through its pidfd
        /// where there is one).
        case running(pid: Int32, send: @Sendable (Int32) -> Void)
        /// Both streams closed, mostly because the process exited: `run` reaps it next. Until
        /// then the pid is still its own.
        case closingStreams(pid: Int32)
        case ended(Termination)
    }

    private let lock = NSLock()
    private var phase = Phase.starting(pending: [])
    private var waiters: [CheckedContinuation<Termination, Never>] = []

    var termination: Termination? {
        lock.withLock {
            if case .ended(let termination) = phase { return termination }
            return nil
        }
    }

    var processID: Int32? {
        lock.withLock {
            switch phase {
            case .running(let pid, _), .closingStreams(let pid): pid
            case .starting, .ended: nil
            }
        }
    }

    func started(_ pid: Int32, send: @escaping @Sendable (Int32) -> Void) {
        lock.withLock {
            guard case .starting(let pending) = phase else { return }
            pending.forEach(send)
            phase = .running(pid: pid, send: send)
        }
    }

    func streamsClosed() {
        lock.withLock {
            if case .running(let pid, _) = phase { phase = .closingStreams(pid: pid) }
        }
    }

    /// Sends `signal` while the process runs; held under the lock, so that the body of `run` (and
    /// its `Execution`) cannot end meanwhile.
    func send(_ signal: Int32) {
        lock.withLock {
            switch phase {
            case .starting(let pending): phase = .starting(pending: pending + [signal])
            case .running(_, let send): send(signal)
            case .closingStreams(let pid): _ = kill(pid, signal)
            case .ended: break
            }
        }
    }

    /// Waits until the process has exited.
    func exit() async -> Termination {
        await withCheckedContinuation { continuation in
            let known: Termination? = lock.withLock {
                if case .ended(let termination) = phase { return termination }
                waiters.append(continuation)
                return nil
            }
            if let known { continuation.resume(returning: known) }
        }
    }

    func finish(_ ending: Termination) {
        let waiting = lock.withLock {
            phase = .ended(ending)
            defer { waiters.removeAll() }
            return waiters
        }
        waiting.forEach { $0.resume(returning: ending) }
    }
}

/// The last lines a process printed, kept for the message of a test that fails on it.
private final class Transcript: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []

    func add(_ line: String) {
        lock.withLock {
            lines.append(line)
            if lines.count > 40 { lines.removeFirst(lines.count - 40) }
        }
    }

    var text: String {
        lock.withLock { lines.joined(separator: "\n") }
    }
}

/// The executables this package builds, next to the running tests.
public enum BuildProducts {
    public static func executable(named name: String) -> URL {
        let buildDirectory = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        let candidates = [buildDirectory, Bundle.main.bundleURL, Bundle.main.bundleURL.deletingLastPathComponent()]
            .map { $0.appendingPathComponent(name) }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates[0]
    }
}
