import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Starts programs that leave servers running (tmux, pg_ctl) so that those servers inherit
/// nothing of the test process: no descriptor (a test server's listening socket, another child's
/// pipe) and no blocked signal.
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
    /// `outputPath`), with no inherited descriptor and no blocked signal, and blocks until it exits;
    /// its exit status, 128 + the signal that ended it, or -1 if it could not start.
    public static func runAndWait(_ path: String, _ argv: [String], outputPath: String) -> Int32 {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        closeInheritedDescriptors(&actions)
        var cArguments = argv.map { strdup($0) } + [nil]
        defer { cArguments.forEach { free($0) } }
        // The calling thread blocks most signals (the concurrency runtime's threads do), and a
        // spawned program inherits that mask: a tmux server started so never hears kill-server.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t(), allSignals = sigset_t()
        sigemptyset(&noSignals)
        sigfillset(&allSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var pid: pid_t = 0
        guard posix_spawn(&pid, path, &actions, &attributes, &cArguments, environ) == 0 else { return -1 }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { return -1 }
        }
        return (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    }

    /// A server started this way (tmux's, PostgreSQL's) outlives the command and would keep every descriptor it inherited: the
    /// listening sockets of the test servers in this process (a stopped server's port would go on
    /// accepting connections nobody answers) and the pipes of other child processes (whose
    /// readers would never see the end). glibc 2.34 and later close them all in the child
    /// (`posix_spawn_file_actions_addclosefrom_np`); before, every descriptor open now is marked
    /// close-on-exec, which leaves a descriptor opened by another thread in between.
    private static func closeInheritedDescriptors(_ actions: inout posix_spawn_file_actions_t) {
        typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        if let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") {
            _ = unsafeBitCast(symbol, to: CloseFrom.self)(&actions, 3)
            return
        }
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd") else { return }
        for descriptor in names.compactMap(Int32.init) where descriptor > 2 {
            let flags = fcntl(descriptor, F_GETFD)
            if flags >= 0 { _ = fcntl(descriptor, F_SETFD, flags | FD_CLOEXEC) }
        }
    }
}
