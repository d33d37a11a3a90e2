import Foundation
import Logging
import Networking
import TextFormatting

/// Prints log messages of the client commands as short lines on standard error,
/// `marquee: warning: …`, without timestamps or metadata: what a person at a terminal reads.
/// The request log's `curl` commands are printed bare, to be pasted, and only with `--curl`.
struct ConsoleLogHandler: LogHandler {
    /// What the command line asked the console to show, captured once after parsing.
    let console: ConsoleSettings
    /// A level set on one logger, which then ignores the command line's.
    private var ownLevel: Logger.Level?
    var metadata: Logger.Metadata = [:]

    init(console: ConsoleSettings) {
        self.console = console
    }

    var logLevel: Logger.Level {
        get {
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

extension LoggingSystem {
    /// Timestamped lines for a server's logs, short lines showing what `console` asks for
    /// everything else.
    static func bootstrapForMarquee(console: ConsoleSettings) {
        bootstrap { label -> any LogHandler in
            label == "marquee.server" ? StreamLogHandler.standardError(label: label) : ConsoleLogHandler(console: console)
        }
    }
}
