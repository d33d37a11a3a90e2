import Logging
import NIOConcurrencyHelpers

/// A logger whose messages are kept, so a test can read what a component logged.
public final class LogCapture: Sendable {
    private let lines = NIOLockedValueBox<[String]>([])

    public init() {}

    /// A logger at `trace` level whose every message lands in ``messages``.
    public var logger: Logger {
        let lines = lines
        var logger = Logger(label: "test.capture") { _ in CapturingHandler(lines: lines) }
        logger.logLevel = .trace
        return logger
    }

    /// What was logged, in order, as `level: message`.
    public var messages: [String] { lines.withLockedValue { $0 } }
}

private struct CapturingHandler: LogHandler {
    let lines: NIOLockedValueBox<[String]>
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        lines.withLockedValue { $0.append("\(event.level): \(event.message)") }
    }
}
