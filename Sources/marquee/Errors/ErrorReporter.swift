import ArgumentParser
import Foundation

/// Prints a failure as one line on standard error and ends the process with a non-zero status.
enum ErrorReporter {
    /// A command line that could not be parsed. Help and version requests print and exit 0.
    static func exitForParsing(_ error: any Error) -> Never {
        let code = MarqueeCommand.exitCode(for: error)
        guard code != .success else { MarqueeCommand.exit(withError: error) }
        let message = MarqueeCommand.message(for: error)
            .split(separator: "\n").first.map(String.init) ?? "invalid arguments"
        printLine("marquee: \(lowercasingFirst(message)) (see 'marquee --help')")
        exit(code.rawValue)
    }

    /// A command that failed while running.
    static func exitForRunning(_ error: any Error) -> Never {
        if let exitCode = error as? ExitCode { exit(exitCode.rawValue) }
        if MarqueeCommand.exitCode(for: error) == .success { MarqueeCommand.exit(withError: error) }
        printLine("marquee: \(describe(error))")
        exit(1)
    }

    /// The one-line, user-facing text of any error.
    static func describe(_ error: any Error) -> String {
        let text =
            if let error = error as? any LocalizedError, let description = error.errorDescription {
                description
            } else {
                String(describing: error)
            }
        return text.split(whereSeparator: \.isNewline).joined(separator: " ")
    }

    private static func printLine(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    private static func lowercasingFirst(_ text: String) -> String {
        guard let first = text.first, text.dropFirst().first?.isLowercase ?? true else { return text }
        return first.lowercased() + text.dropFirst()
    }
}
