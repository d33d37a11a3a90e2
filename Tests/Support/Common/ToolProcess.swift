import Foundation

/// Runs a system tool (initdb, pg_ctl, createdb…) to completion and returns what it printed.
/// Its output goes to a file (``DetachedSpawn``): pg_ctl leaves a server running, which keeps what
/// it inherits.
public enum ToolProcess {
    public struct Failure: Error, CustomStringConvertible {
        public let command: String
        public let status: Int32
        public let output: String
        public var description: String { "\(command) exited with \(status): \(output)" }
    }

    /// Runs `executable` with `arguments`; as `user` when given and this process is root (through
    /// `runuser`, for tools that refuse to run as root). Throws unless it exits 0.
    @discardableResult
    public static func run(_ executable: String, _ arguments: [String], as user: String? = nil) async throws -> String {
        let (path, argv) =
            if let user, geteuid() == 0 {
                ("/usr/sbin/runuser", ["runuser", "-u", user, "--", executable] + arguments)
            } else {
                (executable, [executable] + arguments)
            }
        let outputPath = TestFolders.temporary.appendingPathComponent("tool-\(UUID().uuidString).log").path
        defer { unlink(outputPath) }
        let status = await DetachedSpawn.run(path, argv, outputPath: outputPath)
        let text = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        guard status == 0 else {
            throw Failure(command: ([executable] + arguments).joined(separator: " "), status: status, output: text)
        }
        return text
    }
}
