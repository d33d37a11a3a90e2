import Foundation
import Logging
import ServiceLifecycle
import Telemetry
import Tracing

/// A client command run as one trace, when the `OTEL_*` environment asks for traces
/// (``TraceExport``): a span for the command, a child span for each request it sends (the server's
/// spans follow them by `traceparent`), exported when the command ends.
enum TracedCommand {
    /// How long the end of a command waits for its spans to be sent: a collector that does not
    /// answer must not hold a person's terminal.
    static let flushLimit = Duration.seconds(3)

    /// Runs `body` in the span `marquee WORD` (the command's first word) and sends the spans; runs
    /// it bare when no trace export is asked for.
    static func run(_ body: () async throws -> Void) async throws {
        guard let export = TraceExport(environment: ProcessInfo.processInfo.environment, defaultServiceName: "marquee") else {
            return try await body()
        }
        let logger = Logger(label: "marquee.tracing")
        let group = ServiceGroup(configuration: ServiceGroupConfiguration(services: [try export.start(logger: logger)], logger: logger))
        let exporting = Task { try await group.run() }
        let name = CommandLine.arguments.dropFirst().first.flatMap { $0.hasPrefix("-") ? nil : $0 } ?? "marquee"
        let outcome: Result<Void, any Error>
        do {
            try await withSpan("marquee \(name)", ofKind: .internal) { _ in try await body() }
            outcome = .success(())
        } catch {
            outcome = .failure(error)
        }
        await group.triggerGracefulShutdown()
        await withTaskGroup(of: Void.self) { waiting in
            waiting.addTask { _ = try? await exporting.value }
            waiting.addTask { try? await Task.sleep(for: flushLimit) }
            await waiting.next()
            waiting.cancelAll()
        }
        try outcome.get()
    }
}
