import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Runs programs that leave servers running (tmux, pg_ctl), with their output in a file, so that
/// those servers inherit nothing of the test process (see ``PosixSpawn``).
public enum DetachedSpawn {
    /// ``runAndWait(_:_:outputPath:)`` on a thread of its own, so that no thread of the
    /// concurrency pool blocks on it.
    public static func run(_ path: String, _ argv: [String], outputPath: String) async -> Int32 {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(returning: runAndWait(path, argv, outputPath: outputPath))
            }
        }
    }

    /// Starts `path` with `argv` (standard input from /dev/null, output and errors to
    /// `outputPath`) and blocks until it exits; its exit status, 128 + the signal that ended it,
    /// or -1 if it could not start.
    public static func runAndWait(_ path: String, _ argv: [String], outputPath: String) -> Int32 {
        let pid: pid_t
        do {
            pid = try PosixSpawn.start(path, argv) { actions in
                posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
                posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
                posix_spawn_file_actions_adddup2(&actions, 1, 2)
            }
        } catch {
            return -1
        }
        return PosixSpawn.waitForExit(pid).shellStatus
    }
}
