@testable import MovieServer
import Testing

/// The feed task's wake-up: a signal wakes one wait, and a wait that a signal ended leaves
/// nothing behind for the next (a cancelled timer once did, and the task spun on a core for ever).
@Suite("The feed's wake signal")
struct WakeSignalTests {
    @Test("a signal given before the wait ends it at once; the next wait lasts its limit")
    func oneSignalOneWake() async throws {
        let signal = WakeSignal()
        signal.signal()
        let first = ContinuousClock.now
        await signal.wait(atMost: .seconds(30))
        #expect(ContinuousClock.now - first < .seconds(5))
        let second = ContinuousClock.now
        await signal.wait(atMost: .milliseconds(300))
        #expect(ContinuousClock.now - second >= .milliseconds(290), "a spent signal woke the next wait")
    }
}
