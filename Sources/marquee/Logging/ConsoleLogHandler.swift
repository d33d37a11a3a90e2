import MovieBrowser
import Foundation
import Logging

/// Prints log messages of the client commands as short lines on standard error,
/// `marquee: warning: …`, without timestamps or metadata: what a person at a terminal reads.
struct ConsoleLogHandler: LogHandler {
    var logLevel: Logger.Level = .warning
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let line = "marquee: \(event.level >= .error ? "error" : event.level.rawValue): \(TerminalText.safe("\(event.message)"))\n"
        FileHandle.standardError.write(Data(line.utf8))
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
