import ArgumentParser
import Foundation
import MovieAPI
import MovieStore
import TextFormatting

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

    /// The one-line, user-facing text of any error, safe for a terminal, with what to run to
    /// fix it when the app knows.
    static func describe(_ error: any Error) -> String {
        let text =
            if let error = error as? any LocalizedError, let description = error.errorDescription {
                description
            } else {
                String(describing: error)
            }
        let line = text.split(whereSeparator: \.isNewline).joined(separator: " ") + (hint(for: error).map { "; \($0)" } ?? "")
        return TerminalText.safe(line)
    }

    /// The app's advice for a library's error: the commands and options that fix it.
    private static func hint(for error: any Error) -> String? {
        switch error {
        case let error as StoreError:
            let store = error.path.map { " --store '\($0)'" } ?? ""
            switch error {
            case .damaged: return "move the file away, or run 'marquee cache clear\(store)' to start over"
            case .newerVersion: return "update Marquee, or run 'marquee cache clear\(store)' to start over"
            case .cannotOpen: return "check the folder's permissions, or choose another file with --store"
            case .notAStore: return "choose another file with --store"
            case .diskFull: return "free some space, or choose another file with --store"
            case .notStored, .failed: return nil
            }
        case is CredentialsFileError:
            return "check the file's permissions, or remove it to sign in again"
        default:
            return nil
        }
    }

    private static func printLine(_ line: String) {
        FileHandle.standardError.write(Data((TerminalText.safe(line) + "\n").utf8))
    }

    private static func lowercasingFirst(_ text: String) -> String {
        guard let first = text.first, text.dropFirst().first?.isLowercase ?? true else { return text }
        return first.lowercased() + text.dropFirst()
    }
}
