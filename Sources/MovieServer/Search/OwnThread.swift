import Foundation

/// Runs seconds of CPU work (making, reading or writing a million movies' index) on a thread of
/// its own: `serve` runs its tasks on the event loops, which must not stop answering meanwhile.
enum OwnThread {
    static func run<Result: Sendable>(_ work: @escaping @Sendable () -> Result) async -> Result {
        await withCheckedContinuation { continuation in
            let thread = Thread { continuation.resume(returning: work()) }
            thread.stackSize = 8 << 20
            thread.start()
        }
    }
}
