import Foundation
import Logging
import Networking
import TextFormatting

/// Prints log messages of the client commands as short lines on standard error,
/// `marquee: warning: …`, without timestamps or metadata: what a person at a terminal reads.
/// The request log's `curl` commands are printed bare, to be pasted, and only with `--curl`.
struct ConsoleLogHandler: LogHandler {
    /// A level set on one logger, which then ignores the command line's.
    private var ownLevel: Logger.Level?
    var metadata: Logger.Metadata = [:]

    var logLevel: Logger.Level {
        get {
            let console = ConsoleSettings.shared.current
            let level = ownLevel ?? console.level
            return console.showsCurl ? min(level, .debug) : level
        }
        set { ownLevel = newValue }
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let console = ConsoleSettings.shared.current
        let line: String
        if event.metadata?[APIClient.curlMetadataKey] != nil {
            guard console.showsCurl else { return }
            line = TerminalText.safe("\(event.message)") + "\n"
        } else {
            guard event.level >= ownLevel ?? console.level else { return }
            line = "marquee: \(event.level >= .error ? "error" : event.level.rawValue): \(TerminalText.safe("\(event.message)"))\n"
        }
        FileHandle.standardError.write(Data(line.utf8))
    }
}

/// What the console shows, as the command line asked: the lowest level printed, and whether
/// requests are printed as `curl` commands.
final class ConsoleSettings: @unchecked Sendable {
    struct Values {
        var level: Logger.Level = .warning
        var showsCurl = false
    }

    static let shared = ConsoleSettings()

    private let lock = NSLock()
    private var values = Values()

    var current: Values { lock.withLock { values } }

    func set(level: Logger.Level, showsCurl: Bool) {
        lock.withLock { values = Values(level: level, showsCurl: showsCurl) }
    }
}

extension LoggingSystem {
    /// Timestamped lines for a server's logs, short lines for everything else.
    static func bootstrapForMarquee() {
        bootstrap { label -> any LogHandler in
            label == "marquee.server" ? StreamLogHandler.standardError(label: label) : ConsoleLogHandler()
        }
    }
}
