import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A real terminal for end-to-end tests of full-screen programs: a detached tmux session on a
/// private server socket, driven with `send-keys` and read with `capture-pane`.
public final class TmuxTerminal: Sendable {
    /// Why tmux could not do what a test asked.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    private let socketName = "marquee-test-\(UUID().uuidString.prefix(8))"
    private let session = "browse"

    /// Starts `command` (run by `sh -c`) in a `width`×`height` terminal. The session ends when the
    /// command does, so a command that must be read after its program exits keeps the pane open
    /// for a while itself (`sleep`).
    private init() {}

    public static func start(command: String, environment: [String: String], width: Int, height: Int) async throws -> TmuxTerminal {
        let terminal = TmuxTerminal()
        let variables = environment.map { "\($0.key)=\($0.value)" }
        try await terminal.tmux(["new-session", "-d", "-s", terminal.session, "-x", "\(width)", "-y", "\(height)", "env -i " + (variables + ["/bin/sh", "-c", command]).map(Self.quoted).joined(separator: " ")])
        return terminal
    }

    /// Types `keys`, in tmux's names (`Right`, `Enter`, `Escape`, `q`).
    public func send(_ keys: String...) async throws {
        try await tmux(["send-keys", "-t", session] + keys)
    }

    /// What the screen shows now, one string per row, without trailing spaces; with
    /// `attributes`, with the escape sequences of its colors and styles.
    public func screen(attributes: Bool = false) async throws -> [String] {
        try await tmux(["capture-pane", "-p", "-t", session] + (attributes ? ["-e"] : [])).components(separatedBy: "\n")
    }

    /// A tmux format of the pane, such as `#{alternate_on}` or `#{pane_pid}`.
    public func pane(_ format: String) async throws -> String {
        try await tmux(["display-message", "-p", "-t", session, format]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    public func resize(width: Int, height: Int) async throws {
        try await tmux(["resize-window", "-t", session, "-x", "\(width)", "-y", "\(height)"])
    }

    /// The screen once `matches` holds for it, polled every 20 ms; a failure with the last screen
    /// when `timeLimit` passes first.
    @discardableResult
    public func waitForScreen(timeLimit: Duration = .seconds(20), _ what: String, where matches: ([String]) -> Bool) async throws -> [String] {
        let deadline = ContinuousClock.now + timeLimit
        var last: [String] = []
        while ContinuousClock.now < deadline {
            last = try await screen()
            if matches(last) { return last }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw Failure(description: "the screen never showed \(what); it showed:\n" + last.joined(separator: "\n"))
    }

    /// Waits for a screen on which some row contains `text`.
    @discardableResult
    public func waitForText(_ text: String, timeLimit: Duration = .seconds(20)) async throws -> [String] {
        try await waitForScreen(timeLimit: timeLimit, "'\(text)'") { $0.contains { $0.contains(text) } }
    }

    /// Ends the tmux server and the program in it (SIGHUP). It waits the few milliseconds that
    /// takes, so that it can be called from `defer` and is done before the test process exits.
    public func kill() {
        _ = DetachedSpawn.runAndWait("/usr/bin/tmux", ["tmux", "-L", socketName, "kill-server"], outputPath: "/dev/null")
    }

    /// Runs one tmux command and returns what it printed. tmux is started with `posix_spawn` and
    /// waited for with `waitpid` on a thread of its own: the client exits at once, but the server
    /// it starts keeps the descriptors it inherited (output goes to a file, not a pipe), and no
    /// thread of the concurrency pool may block on it.
    @discardableResult
    private func tmux(_ arguments: [String]) async throws -> String {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux") else {
            throw Failure(description: "tmux is not installed (scripts/install-system-deps installs it)")
        }
        let outputPath = TestFolders.temporary.appendingPathComponent("tmux-\(UUID().uuidString)").path
        defer { unlink(outputPath) }
        // -u: the pane is UTF-8 whatever the caller's LANG, so "…" and "—" read the same everywhere.
        let argv = ["tmux", "-u", "-L", socketName, "-f", "/dev/null"] + arguments
        let status = await DetachedSpawn.run("/usr/bin/tmux", argv, outputPath: outputPath)
        let text = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        guard status == 0 else {
            throw Failure(description: "tmux \(arguments.first ?? "") failed (status \(status)): \(text)")
        }
        return text
    }

    private static func quoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
