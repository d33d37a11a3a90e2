import Foundation
import Subprocess
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs programs that leave servers running (tmux, pg_ctl) or whose children may outlive them,
/// with their output and errors in a file rather than on a pipe: a server started so keeps what it
/// inherits, and no pipe of the test process is held open by it. Subprocess gives it nothing else
/// of the test process (it closes every other descriptor in the child).
public enum DetachedSpawn {
    /// Runs `path` with `argv` (its first element is the program's name) to its end, standard
    /// input from /dev/null, output and errors to `outputPath`; its exit status, 128 + the signal
    /// that ended it, or -1 if it could not start.
    public static func run(_ path: String, _ argv: [String], outputPath: String) async -> Int32 {
        let descriptor = open(outputPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return -1 }
        do {
            let result = try await Subprocess.run(
                .path(.init(path)), arguments: Arguments(executablePathOverride: argv.first, remainingValues: Array(argv.dropFirst())),
                platformOptions: .ownProcessGroup, input: .none,
                output: .fileDescriptor(.init(rawValue: descriptor), closeAfterSpawningProcess: true), error: .combinedWithOutput
            )
            return Termination(result.terminationStatus).shellStatus
        } catch {
            return -1
        }
    }
}
