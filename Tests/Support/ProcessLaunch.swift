import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Starts a `Process` with `SIGCHLD` blocked on the calling thread for the duration of `run()`.
///
/// Foundation's `Process.run()` closes and duplicates descriptors without retrying on `EINTR`,
/// and ends the test process with a fatal error when one of those calls is interrupted. With
/// hundreds of child processes exiting during a run of the suite, a `SIGCHLD` handled on the
/// launching thread at that moment did just that once ("FileHandle.swift:231: Fatal error …
/// Interrupted system call"). Blocked here, the signal goes to another thread.
public enum ProcessLaunch {
    public static func run(_ process: Process) throws {
        var childSignal = sigset_t(), previous = sigset_t()
        sigemptyset(&childSignal)
        sigaddset(&childSignal, SIGCHLD)
        pthread_sigmask(SIG_BLOCK, &childSignal, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        try process.run()
    }
}
