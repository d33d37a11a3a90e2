import Foundation
import Testing

/// A process left running, whose standard output and error are read line by line.
public final class ChildProcess: @unchecked Sendable {
    private let process: SpawnedProcess
    private var outputLines: AsyncStream<String>.Iterator
    private var errorLines: AsyncStream<String>.Iterator
    private let transcript = Transcript()
    private let name: String

    /// Starts `executable` with `arguments` and returns while it runs.
    public init(executable: URL, arguments: [String], environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        name = ([executable.lastPathComponent] + arguments).joined(separator: " ")
        process = try SpawnedProcess(executable, arguments, environment: environment)
        outputLines = Self.lines(of: process.output, transcript: transcript).makeAsyncIterator()
        errorLines = Self.lines(of: process.error, transcript: transcript).makeAsyncIterator()
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
        process.send(signal)
        return await waitForExit(within: timeLimit)
    }

    /// Sends `signal` and returns at once, while the process handles it.
    public func send(_ signal: Int32) {
        process.send(signal)
    }

    public var isRunning: Bool { process.isRunning }

    /// Waits for the process to exit. A process still running after `timeLimit` fails the test
    /// with the last lines it printed and is killed, so no test can hang CI.
    public func waitForExit(within timeLimit: Duration = .seconds(60)) async -> Int32 {
        let process = process
        let watchdog = Task { [name, transcript] in
            try await Task.sleep(for: timeLimit)
            guard process.isRunning else { return }
            Issue.record("'\(name)' did not exit within \(timeLimit); it was killed. Its last output:\n\(transcript.text)")
            process.send(SIGKILL)
        }
        defer { watchdog.cancel() }
        return await process.exit().status
    }

    /// The last lines the process printed on either stream, for a failure message.
    public var lastOutput: String { transcript.text }

    /// How the process ended (`nil` while it runs).
    public var termination: Termination? { process.exited }

    /// The lines of `descriptor`, read on a thread of their own until the end, when the descriptor
    /// is closed.
    private static func lines(of descriptor: Int32, transcript: Transcript) -> AsyncStream<String> {
        let (lines, continuation) = AsyncStream<String>.makeStream()
        let pending = PendingText()
        // A thread of its own, not a readability handler: a dispatch source on a descriptor that
        // is closed while registered can crash libdispatch's manager thread on Linux.
        Thread.detachNewThread {
            while true {
                let chunk = DescriptorReading.chunk(descriptor)
                if chunk.isEmpty {
                    close(descriptor)
                    if let rest = pending.flush() {
                        transcript.add(rest)
                        continuation.yield(rest)
                    }
                    continuation.finish()
                    return
                }
                for line in pending.append(chunk) {
                    transcript.add(line)
                    continuation.yield(line)
                }
            }
        }
        return lines
    }
}

/// The last lines a process printed, kept for the message of a test that fails on it.
private final class Transcript: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []

    func add(_ line: String) {
        lock.lock()
        defer { lock.unlock() }
        lines.append(line)
        if lines.count > 40 { lines.removeFirst(lines.count - 40) }
    }

    var text: String {
        lock.lock()
        defer { lock.unlock() }
        return lines.joined(separator: "\n")
    }
}

/// Bytes read so far that do not yet end in a newline.
private final class PendingText: @unchecked Sendable {
    private let lock = NSLock()
    private var buffer = Data()

    func append(_ chunk: Data) -> [String] {
        lock.lock()
        defer { lock.unlock() }
        buffer.append(chunk)
        var lines: [String] = []
        while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
            lines.append(String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self))
            buffer.removeSubrange(buffer.startIndex...newline)
        }
        return lines
    }

    func flush() -> String? {
        lock.lock()
        defer { lock.unlock() }
        guard !buffer.isEmpty else { return nil }
        defer { buffer.removeAll() }
        return String(decoding: buffer, as: UTF8.self)
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
