import ArgumentParser
import Foundation
import Logging
import MovieAPI
import MovieServer
import Networking
import MovieStore
import TextFormatting

/// Prints a failure as one line on standard error and ends the process with a non-zero status.
enum ErrorReporter {
    /// A command line that could not be parsed. Help and version requests print and exit 0.
    static func exitForParsing(_ error: any Error) -> Never {
        exitForUnknownCommand()
        let code = MarqueeCommand.exitCode(for: error)
        guard code != .success else { MarqueeCommand.exit(withError: error) }
        let help = "see '\(helpCommand(for: Array(CommandLine.arguments.dropFirst())))'"
        if let negative = MovieIDArgument.negativeID(in: Array(CommandLine.arguments.dropFirst())) {
            printLine("marquee: \(MovieIDArgument.problem(with: negative)) (\(help))")
            exit(ExitCode.validationFailure.rawValue)
        }
        let message = MarqueeCommand.message(for: error)
            .split(separator: "\n").first.map(String.init) ?? "invalid arguments"
        printLine("marquee: \(lowercasingFirst(message)) (\(help))")
        exit(code.rawValue)
    }

    /// Ends the process with the unknown-command line (status 64) when the command line's first
    /// word names no command, whatever follows it (`marquee login --help` too).
    static func exitForUnknownCommand() {
        guard let typed = unknownCommand() else { return }
        let advice = CommandSuggestion.closest(to: typed, among: commandNames).map { "did you mean '\($0)'?" }
            ?? "the commands are \(commandNames.joined(separator: ", "))"
        printLine("marquee: unknown command '\(typed)'; \(advice) (see 'marquee --help')")
        exit(ExitCode.validationFailure.rawValue)
    }

    /// The help of the command the words name, as far as they name one: `marquee watch add
    /// --help` for `watch add x`, `marquee --help` when the first word names no command.
    static func helpCommand(for words: [String]) -> String {
        var command: any ParsableCommand.Type = MarqueeCommand.self
        var path = ["marquee"]
        for word in words {
            guard let next = command.configuration.subcommands.first(where: { $0.configuration.commandName == word }) else { break }
            command = next
            path.append(word)
        }
        return (path + ["--help"]).joined(separator: " ")
    }

    /// The names of the commands `marquee` takes first.
    private static var commandNames: [String] {
        MarqueeCommand.configuration.subcommands.compactMap { $0.configuration.commandName }
    }

    /// The first word of the command line when it is not an option and names no command.
    private static func unknownCommand() -> String? {
        guard let first = CommandLine.arguments.dropFirst().first, !first.hasPrefix("-"), first != "help", !commandNames.contains(first) else { return nil }
        return first
    }

    /// A command that failed while running.
    static func exitForRunning(_ error: any Error) -> Never {
        if let exitCode = error as? ExitCode { exit(exitCode.rawValue) }
        if MarqueeCommand.exitCode(for: error) == .success { MarqueeCommand.exit(withError: error) }
        printLine("marquee: \(describe(error))")
        exit(1)
    }

    /// The one-line, user-facing text of any error that reaches a person: the one formatter every
    /// error path goes through, safe for a terminal. The app's own failures arrive already in
    /// words (``CLIError``); the libraries' typed errors get their fixes here; an error of no known
    /// type is named by its words when it has some, and never shown as a Swift value.
    static func describe(_ error: any Error) -> String {
        switch error {
        case let error as NetworkError: return describe(error)
        case let error as StoreError: return describe(error)
        case let error as CacheFailure<NetworkError>: return describe(error)
        case let error as WatchlistSyncFailure<NetworkError>: return describe(error)
        case let error as ShelfSyncFailure<NetworkError>: return describe(error)
        case let error as CredentialsFileError: return describe(error)
        case let error as DeviceSignInError: return describe(error)
        case let error as AccountError: return oneLine(clause(of: error.description))
        default: break
        }
        if let error = error as? any LocalizedError, let description = error.errorDescription { return oneLine(description) }
        if let words = ownWords(of: error) { return oneLine(words) }
        Logger(label: "marquee").debug("unexpected error: \(String(reflecting: error))")
        return "an unexpected error stopped the command; run it again with --log-level debug to see it"
    }

    /// The description a type gives itself (`CustomStringConvertible`); `nil` for a value Swift
    /// would print as code (`thing(42)`), which differs from its reflection (`Module.Kind.thing(42)`).
    static func ownWords(of error: any Error) -> String? {
        let words = String(describing: error)
        return words == String(reflecting: error) ? words : nil
    }

    /// A watchlist sync that stopped, with the fixes of the failure underneath.
    static func describe(_ failure: WatchlistSyncFailure<NetworkError>) -> String {
        switch failure {
        case let .network(error, sentBefore):
            let delivered = sentBefore.delivered
            let sent = delivered == 0 ? "" : " (after \(NumberText.counted(delivered, "change")) sent)"
            return describe(error) + sent
        case let .store(error): return describe(error)
        case .noWatchlist, .lock: return oneLine(failure.description)
        }
    }

    /// A shelf sync that stopped, with the fixes of the failure underneath.
    static func describe(_ failure: ShelfSyncFailure<NetworkError>) -> String {
        switch failure {
        case let .network(error, sentBefore):
            let delivered = sentBefore.delivered
            return describe(error) + (delivered == 0 ? "" : " (after \(NumberText.counted(delivered, "change")) sent)")
        case let .store(error): return describe(error)
        case let .lock(reason): return oneLine("the store's sync lock: \(reason)")
        }
    }

    /// A sign-in from the terminal that did not end with a credential.
    static func describe(_ error: DeviceSignInError) -> String {
        if case let .network(failure) = error { return describe(failure) }
        return oneLine(error.description)
    }

    /// A failed call of the cached movie service, with what to run to fix it when the app knows.
    static func describe(_ failure: CacheFailure<NetworkError>) -> String {
        switch failure {
        case let .network(error): describe(error)
        case let .store(error): describe(error)
        case .nothingStored, .cancelled: oneLine(failure.description)
        }
    }

    /// A network failure, with what the user can change: the timeout, the client's credentials.
    static func describe(_ error: NetworkError) -> String {
        if let signedOut = SignedOut.sentence(in: error.description) { return oneLine(signedOut) }
        let hint: String? =
            switch error {
            case .timedOut: "try again later, or allow longer with --timeout SECONDS"
            case .status(code: 401, _), .authenticationFailed:
                "if the server expects other client credentials, set MARQUEE_CLIENT_ID and MARQUEE_CLIENT_SECRET"
            default: nil
            }
        return oneLine(withHint(error.errorDescription ?? error.description, hint))
    }

    /// A store that cannot be used, with the commands and options that fix it.
    static func describe(_ error: StoreError) -> String {
        let store = error.path.map { " --store \(ShellQuoting.quoted($0))" } ?? ""
        let hint: String? =
            switch error {
            case .damaged: "move the file away, or start over with: marquee cache clear\(store)"
            case .newerVersion: "update Marquee, or start over with: marquee cache clear\(store)"
            case .cannotOpen: "check the folder's permissions, or choose another file with --store"
            case .notAStore: "choose another file with --store"
            case .diskFull: "free some space, or choose another file with --store"
            case .failed: nil
            }
        return oneLine(withHint(error.description, hint))
    }

    /// A credentials file that cannot be read or written, with what fixes it.
    static func describe(_ error: CredentialsFileError) -> String {
        oneLine(withHint(error.description, fix(for: error)))
    }

    /// What a person does about a credentials file that cannot be used; `nil` when its
    /// description already says.
    private static func fix(for error: CredentialsFileError) -> String? {
        switch error {
        case .unreadable: "check the file's permissions"
        case .corrupt, .cannotLock(.cancelled): nil
        case .cannotWrite, .cannotLock(.cannotOpen): "check that its folder can be written, or set XDG_CONFIG_HOME to a folder that can"
        case .cannotLock(.timedOut): "another marquee is still changing it: let it finish, then try again"
        }
    }

    /// `text; hint`, the full stop that may end `text` (a server's sentence) dropped first.
    static func withHint(_ text: String, _ hint: String?) -> String {
        guard let hint else { return text }
        let trimmed = text.hasSuffix(".") && !text.hasSuffix("..") ? String(text.dropLast()) : text
        return "\(trimmed); \(hint)"
    }

    private static func oneLine(_ text: String) -> String {
        TerminalText.safe(text.split(whereSeparator: \.isNewline).joined(separator: " "))
    }

    private static func printLine(_ line: String) {
        FileHandle.standardError.write(Data((TerminalText.safe(line) + "\n").utf8))
    }

    /// A sentence written for the sign-in page ("There is no account 'x'.") as the clause a
    /// `marquee:` line holds: its first letter lowered, its full stop dropped.
    static func clause(of sentence: String) -> String {
        let clause = lowercasingFirst(sentence)
        return clause.hasSuffix(".") && !clause.hasSuffix("..") ? String(clause.dropLast()) : clause
    }

    private static func lowercasingFirst(_ text: String) -> String {
        guard let first = text.first, text.dropFirst().first?.isLowercase ?? true else { return text }
        return first.lowercased() + text.dropFirst()
    }
}
