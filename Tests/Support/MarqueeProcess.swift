import Foundation

/// The built `marquee` executable, run as a user would run it.
public struct MarqueeProcess: Sendable {
    /// What one run printed and how it ended.
    public struct Outcome: Sendable {
        public let status: Int32
        public let standardOutput: String
        public let standardError: String

        public var errorLines: [Substring] { standardError.split(separator: "\n") }
    }

    public var executable: URL
    public var environment: [String: String]

    /// The executable next to the running test bundle, in the same build directory, with its
    /// own empty config and cache folders so tests never touch the user's.
    public init() {
        executable = BuildProducts.executable(named: "marquee")
        let home = TestFolders.temporary.appendingPathComponent("marquee-home-\(UUID().uuidString)")
        environment = ProcessInfo.processInfo.environment
        environment["XDG_CONFIG_HOME"] = home.appendingPathComponent("config").path
        environment["XDG_CACHE_HOME"] = home.appendingPathComponent("cache").path
        environment["TMPDIR"] = TestFolders.temporary.path
    }

    /// Starts `marquee` with `arguments` and returns while it runs.
    public func launch(_ arguments: [String]) throws -> ChildProcess {
        try ChildProcess(executable: executable, arguments: arguments, environment: environment)
    }

    /// Runs `marquee` with `arguments` and waits for it to exit; a run longer than `timeLimit` is
    /// killed (its outcome then has status 128 + SIGKILL), so a hang fails the test, not the CI run.
    public func run(_ arguments: [String], environment extra: [String: String] = [:], timeLimit: Duration = .seconds(90)) async throws -> Outcome {
        try await Self.run(executable, arguments, environment: environment.merging(extra) { $1 }, timeLimit: timeLimit)
    }

    /// Runs any program as ``run(_:environment:timeLimit:)`` runs `marquee`.
    public static func run(_ executable: URL, _ arguments: [String], environment: [String: String], timeLimit: Duration = .seconds(90)) async throws -> Outcome {
        let process = try SpawnedProcess(executable, arguments, environment: environment)
        let watchdog = Task {
            try await Task.sleep(for: timeLimit)
            process.send(SIGKILL)
        }
        defer { watchdog.cancel() }
        async let outputData = readAll(process.output)
        async let errorData = readAll(process.error)
        let (outputBytes, errorBytes) = await (outputData, errorData)
        return Outcome(
            status: await process.exit().shellStatus,
            standardOutput: String(decoding: outputBytes, as: UTF8.self),
            standardError: String(decoding: errorBytes, as: UTF8.self)
        )
    }

    /// Reads `descriptor` to the end and closes it, on a thread of its own: a blocking read must
    /// not hold one of the few threads of the concurrency pool, which an in-process test server
    /// needs to answer.
    static func readAll(_ descriptor: Int32) async -> Data {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                let data = DescriptorReading.all(descriptor)
                close(descriptor)
                continuation.resume(returning: data)
            }
        }
    }
}
