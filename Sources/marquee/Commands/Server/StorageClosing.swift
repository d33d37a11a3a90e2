import Foundation
import Logging
import MovieServer
import NIOConcurrencyHelpers

/// How `serve` lets go of its database once it has stopped serving: a close that does not come
/// back within its limit (a database access that never returns, a connection that never answers)
/// is left behind, so a process told to stop exits. Nothing is lost by that: an SQLite file is
/// consistent without a close, and PostgreSQL ends the session when the socket goes.
enum StorageClosing {
    /// Closes `storage`, waiting at most `limit`; says so when it gave up.
    static func close(_ storage: any ServerStorage, within limit: Duration, logger: Logger) async {
        if await !finish(within: limit, { await storage.close() }) {
            logger.warning("\(storage.summary) did not close within \(limit.components.seconds) s; exiting without waiting for it")
        }
    }

    /// Starts `work` and waits for it at most `limit`: true when it finished in time. Work that
    /// did not is left running.
    static func finish(within limit: Duration, _ work: @escaping @Sendable () async -> Void) async -> Bool {
        await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let answered = NIOLockedValueBox(false)
            let answer = { @Sendable (finished: Bool) in
                guard answered.withLockedValue({ wasAnswered in defer { wasAnswered = true }; return !wasAnswered }) else { return }
                continuation.resume(returning: finished)
            }
            Task {
                await work()
                answer(true)
            }
            Task {
                try? await Task.sleep(for: limit)
                answer(false)
            }
        }
    }
}
