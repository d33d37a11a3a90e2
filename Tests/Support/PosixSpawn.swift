import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Starts programs with `posix_spawn` as a shell would: no descriptor of the test process but the
/// three standard streams the caller sets up, every signal unblocked and at its default, in a
/// process group of its own.
///
/// The tests used Foundation's `Process` before. On Linux it lists `/proc/self/fd` and adds a close
/// action for every open descriptor on each launch, ends the test process when a `SIGCHLD`
/// interrupts one of its calls, and keeps each `Process` (and its pipes) alive through its own
/// run-loop source: a run of the suite once crashed in that listing with more than 1,300
/// descriptors open.
public enum PosixSpawn {
    /// Why a program could not be started.
    public struct Failure: Error, CustomStringConvertible {
        public let path: String
        public let code: Int32
        public var description: String { "could not start \(path): \(String(cString: strerror(code)))" }
    }

    /// Starts `path` with `argv` (its first element is the program's name) and `environment`
    /// (this process's when `nil`); `streams` adds the actions that set up descriptors 0, 1 and 2.
    public static func start(
        _ path: String, _ argv: [String], environment: [String: String]? = nil,
        streams: (inout posix_spawn_file_actions_t) -> Void
    ) throws(Failure) -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        streams(&actions)
        closeInheritedDescriptors(&actions)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // The calling thread may block signals (the concurrency runtime's threads block most), and a
        // spawned program inherits that mask: a server started so never hears SIGTERM.
        var noSignals = sigset_t(), allSignals = sigset_t()
        sigemptyset(&noSignals)
        sigfillset(&allSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))

        var cArguments = argv.map { strdup($0) } + [nil]
        defer { cArguments.forEach { free($0) } }
        var pid: pid_t = 0
        let code: Int32
        if let environment {
            var cEnvironment = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
            defer { cEnvironment.forEach { free($0) } }
            code = posix_spawn(&pid, path, &actions, &attributes, &cArguments, &cEnvironment)
        } else {
            code = posix_spawn(&pid, path, &actions, &attributes, &cArguments, environ)
        }
        guard code == 0 else { throw Failure(path: path, code: code) }
        return pid
    }

    /// Waits for `pid` to exit, on the calling thread.
    public static func waitForExit(_ pid: pid_t) -> Termination {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { return Termination(status: -1, reason: .exit) }
        }
        let signal = status & 0x7F
        return signal == 0
            ? Termination(status: (status >> 8) & 0xFF, reason: .exit)
            : Termination(status: signal, reason: .uncaughtSignal)
    }

    /// A pipe whose two ends no other child keeps open: programs started here close every
    /// descriptor above 2, and the ends are close-on-exec for any other (`dup2` onto a standard
    /// stream clears the flag for that copy).
    public static func makePipe() throws(Failure) -> (read: Int32, write: Int32) {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw Failure(path: "pipe", code: errno) }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        return (ends[0], ends[1])
    }

    /// A server started this way (tmux's, PostgreSQL's) may outlive the command and would keep every
    /// descriptor it inherited: the listening sockets of the test servers in this process (a stopped
    /// server's port would go on accepting connections nobody answers) and the pipes of other
    /// child processes (whose readers would never see the end). glibc 2.34 and later close them all
    /// in the child (`posix_spawn_file_actions_addclosefrom_np`); before, every descriptor open now
    /// is marked close-on-exec, which leaves a descriptor opened by another thread in between.
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

/// How a program ended: its exit status, or the signal that ended it.
public struct Termination: Sendable, Equatable {
    public enum Reason: Sendable { case exit, uncaughtSignal }

    /// The exit status, or the number of the signal when ``reason`` is `.uncaughtSignal`.
    public let status: Int32
    public let reason: Reason

    /// As a shell reports it: the exit status, or 128 + the signal.
    public var shellStatus: Int32 { reason == .exit ? status : 128 + status }
}
