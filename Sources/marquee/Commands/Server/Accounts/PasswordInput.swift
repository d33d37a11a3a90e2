#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// A password for `marquee accounts`: typed at the terminal without echo, twice to catch a typo;
/// or, when standard input is not a terminal, its first line (`printf '%s\n' "$PW" | marquee
/// accounts add alice`), so that a password never needs to be an argument that `ps` shows.
enum PasswordInput {
    enum Failure: Error, CustomStringConvertible {
        case noInput
        case mismatch

        var description: String {
            switch self {
            case .noInput: "no password was given: type one at the prompt, or send it as the first line of standard input"
            case .mismatch: "the two passwords typed differ; nothing was changed"
            }
        }
    }

    static func read(purpose: String) throws -> String {
        guard isatty(STDIN_FILENO) == 1 else {
            guard let line = readLine(strippingNewline: true), !line.isEmpty else { throw Failure.noInput }
            return line
        }
        let first = try prompt("\(purpose): ")
        let second = try prompt("Again, to be sure: ")
        guard first == second else { throw Failure.mismatch }
        return first
    }

    /// One line typed with echo off; echo comes back even when the read fails.
    private static func prompt(_ text: String) throws -> String {
        FileHandle.standardError.write(Data(text.utf8))
        var saved = termios()
        let hasTerminal = tcgetattr(STDIN_FILENO, &saved) == 0
        if hasTerminal {
            var silent = saved
            silent.c_lflag &= ~tcflag_t(ECHO)
            tcsetattr(STDIN_FILENO, TCSAFLUSH, &silent)
        }
        defer {
            if hasTerminal { tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved) }
            FileHandle.standardError.write(Data("\n".utf8))
        }
        guard let line = readLine(strippingNewline: true), !line.isEmpty else { throw Failure.noInput }
        return line
    }
}
