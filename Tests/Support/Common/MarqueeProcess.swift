import Foundation
import Subprocess

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

    /// Starts `marquee serve` with `arguments` and returns it once it listens, with its port.
    public func serve(_ arguments: [String]) async throws -> (process: ChildProcess, port: Int) {
        let server = try launch(["serve"] + arguments)
        guard let line = await server.nextErrorLine(containing: "Marquee movie API listening on"),
              let url = line.split(separator: " ").last, let port = URL(string: String(url))?.port
        else {
            _ = await server.signal(SIGKILL)
            throw ServerDidNotStart(arguments: arguments)
        }
        return (server, port)
    }

    /// `marquee serve` exited, or never said it was listening.
    public struct ServerDidNotStart: Error, CustomStringConvertible {
        public let arguments: [String]
        public var description: String { "marquee serve \(arguments.joined(separator: " ")) did not start" }
    }

    /// Runs `marquee` with `arguments` and waits for it to exit; a run longer than `timeLimit` is
    /// killed (its outcome then has status 128 + SIGKILL), so a hang fails the test, not the CI run.
    public func run(_ arguments: [String], environment extra: [String: String] = [:], timeLimit: Duration = .seconds(90)) async throws -> Outcome {
        try await Self.run(executable, arguments, environment: environment.merging(extra) { $1 }, timeLimit: timeLimit)
    }

    /// Runs any program as ``run(_:environment:timeLimit:)`` runs `marquee`: through swift-subprocess,
    /// started as ``ChildProcess`` starts one, its two streams read to their end. When `timeLimit`
    /// passes first, the task of the run is cancelled, and Subprocess's teardown on cancellation
    /// kills the program; the run still returns what it printed.
    public static func run(_ executable: URL, _ arguments: [String], environment: [String: String], timeLimit: Duration = .seconds(90)) async throws -> Outcome {
        try await withThrowingTaskGroup(of: Outcome?.self) { group in
            group.addTask {
                let result = try await Subprocess.run(
                    .path(.init(executable.path)), arguments: Arguments(arguments), environment: .exactly(environment),
                    platformOptions: .ownProcessGroup, input: .none, output: .sequence, error: .sequence
                ) { execution in
                    async let output = collect(execution.standardOutput)
                    async let errors = collect(execution.standardError)
                    return try await (output, errors)
                }
                return Outcome(
                    status: Termination(result.terminationStatus).shellStatus,
                    standardOutput: String(decoding: result.closureResult.0, as: UTF8.self),
                    standardError: String(decoding: result.closureResult.1, as: UTF8.self)
                )
            }
            group.addTask {
                try? await Task.sleep(for: timeLimit)
                return nil
            }
            while let finished = try await group.next() {
                group.cancelAll()
                if let outcome = finished { return outcome }
            }
            throw CancellationError()
        }
    }

    /// Every byte of `output`, until the program closes it or exits.
    private static func collect(_ output: SubprocessOutputSequence) async throws -> Data {
        var data = Data()
        for try await buffer in output {
            buffer.withUnsafeBytes { data.append(contentsOf: $0) }
        }
        return data
    }
}
