import Foundation

/// A process left running, whose standard output and error are read line by line.
public final class ChildProcess: @unchecked Sendable {
    private let process: Process
    private var outputLines: AsyncStream<String>.Iterator
    private var errorLines: AsyncStream<String>.Iterator

    /// Starts `executable` with `arguments` and returns while it runs.
    public init(executable: URL, arguments: [String], environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        let output = Pipe(), error = Pipe()
        process.standardOutput = output
        process.standardError = error
        outputLines = Self.lines(of: output.fileHandleForReading).makeAsyncIterator()
        errorLines = Self.lines(of: error.fileHandleForReading).makeAsyncIterator()
        try process.run()
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

    /// Sends `signal` (SIGINT by default, as Ctrl-C does) and waits for the exit status.
    public func signal(_ signal: Int32 = SIGINT) async -> Int32 {
        kill(process.processIdentifier, signal)
        return await waitForExit()
    }

    /// Sends `signal` and returns at once, while the process handles it.
    public func send(_ signal: Int32) {
        kill(process.processIdentifier, signal)
    }

    public var isRunning: Bool { process.isRunning }

    public func waitForExit() async -> Int32 {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread { [process] in
                process.waitUntilExit()
                continuation.resume(returning: process.terminationStatus)
            }
        }
    }

    public var terminationReason: Process.TerminationReason { process.terminationReason }

    private static func lines(of handle: FileHandle) -> AsyncStream<String> {
        let (lines, continuation) = AsyncStream<String>.makeStream()
        let pending = PendingText()
        // A thread of its own, not a readability handler: a dispatch source on a descriptor that
        // is closed while registered can crash libdispatch's manager thread on Linux.
        Thread.detachNewThread {
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty {
                    if let rest = pending.flush() { continuation.yield(rest) }
                    continuation.finish()
                    return
                }
                for line in pending.append(chunk) { continuation.yield(line) }
            }
        }
        return lines
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
