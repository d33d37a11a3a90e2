import Foundation

/// A `marquee` process left running (a server), whose standard error is read line by line.
public final class RunningMarquee: @unchecked Sendable {
    private let process: Process
    private var errorLines: AsyncStream<String>.Iterator

    init(process: Process, errorLines: AsyncStream<String>) {
        self.process = process
        self.errorLines = errorLines.makeAsyncIterator()
    }

    /// The next line on standard error that contains `text`, or `nil` once the process has closed it.
    public func nextErrorLine(containing text: String) async -> String? {
        while let line = await errorLines.next() {
            if line.contains(text) { return line }
        }
        return nil
    }

    /// Sends SIGINT, as Ctrl-C does, and waits for the exit status.
    public func interrupt() async -> Int32 {
        process.interrupt()
        return await waitForExit()
    }

    public func waitForExit() async -> Int32 {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread { [process] in
                process.waitUntilExit()
                continuation.resume(returning: process.terminationStatus)
            }
        }
    }
}

extension MarqueeProcess {
    /// Starts `marquee` with `arguments` and returns while it runs.
    public func launch(_ arguments: [String]) throws -> RunningMarquee {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = environment
        let error = Pipe()
        process.standardError = error
        process.standardOutput = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        let (lines, continuation) = AsyncStream<String>.makeStream()
        let handle = error.fileHandleForReading
        handle.readabilityHandler = { handle in
            let chunk = handle.availableData
            if chunk.isEmpty {
                handle.readabilityHandler = nil
                continuation.finish()
            } else {
                for line in String(decoding: chunk, as: UTF8.self).split(separator: "\n") {
                    continuation.yield(String(line))
                }
            }
        }
        try process.run()
        return RunningMarquee(process: process, errorLines: lines)
    }
}
