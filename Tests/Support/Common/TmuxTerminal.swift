import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A real terminal for end-to-end tests of full-screen programs: a detached tmux session on a
/// private server socket, driven with `send-keys` and read with `capture-pane`.
public final class TmuxTerminal: Sendable {
    /// Why tmux could not do what a test asked.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    private let socketName: String
    private let session = "browse"
    /// The tmux server's process, which ``kill()`` signals.
    private let serverPID: Int32

    private init(socketName: String, serverPID: Int32) {
        self.socketName = socketName
        self.serverPID = serverPID
    }

    /// Starts `command` (run by `sh -c`) in a `width`×`height` terminal. The session ends when the
    /// command does, so a command that must be read after its program exits keeps the pane open
    /// for a while itself (`sleep`).
    public static func start(command: String, environment: [String: String], width: Int, height: Int) async throws -> TmuxTerminal {
        let socketName = "marquee-test-\(UUID().uuidString.prefix(8))"
        let variables = environment.map { "\($0.key)=\($0.value)" }
        try await tmux(socketName, ["new-session", "-d", "-s", "browse", "-x", "\(width)", "-y", "\(height)", "env -i " + (variables + ["/bin/sh", "-c", command]).map(Self.quoted).joined(separator: " ")])
        let pid = try await tmux(socketName, ["display-message", "-p", "#{pid}"]).trimmingCharacters(in: .whitespacesAndNewlines)
        guard let serverPID = Int32(pid) else { throw Failure(description: "tmux gave no server pid: '\(pid)'") }
        return TmuxTerminal(socketName: socketName, serverPID: serverPID)
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

    /// Ends the tmux server and the program in it (SIGHUP), as `tmux kill-server` does: by sending
    /// the server SIGTERM. It spawns nothing and returns at once, so that `defer` can call it (a
    /// swift-subprocess `run` can only be awaited). Should the server have exited already, its pid
    /// may have been given to another process: on Linux, only a process whose command line still
    /// names this terminal's socket is signalled.
    public func kill() {
        #if os(Linux)
        guard let commandLine = try? String(contentsOfFile: "/proc/\(serverPID)/cmdline", encoding: .utf8),
            commandLine.contains(socketName)
        else { return }
        #endif
        sendSignal(SIGTERM, to: serverPID)
    }

    /// Runs one tmux command and returns what it printed. The client exits at once, but the server
    /// it starts keeps what it inherited: its output goes to a file (``DetachedSpawn``).
    @discardableResult
    private func tmux(_ arguments: [String]) async throws -> String {
        try await Self.tmux(socketName, arguments)
    }

    @discardableResult
    private static func tmux(_ socketName: String, _ arguments: [String]) async throws -> String {
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

/// `kill(2)`, which ``TmuxTerminal/kill()`` hides inside the type.
private func sendSignal(_ signal: Int32, to pid: Int32) {
    _ = kill(pid, signal)
}
