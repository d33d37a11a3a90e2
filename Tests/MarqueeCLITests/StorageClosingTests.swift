@testable import marquee
import Testing

/// `serve` waits a bounded time for its database to close once it has stopped.
@Suite("Closing the storage after serving", .timeLimit(.minutes(1)))
struct StorageClosingTests {
    @Test("a close that never comes back is given up after its limit; one that does is waited for")
    func boundedClose() async {
        let began = ContinuousClock.now
        let stuck = await StorageClosing.finish(within: .milliseconds(200)) {
            try? await Task.sleep(for: .seconds(3_600))
        }
        #expect(!stuck)
        #expect(ContinuousClock.now - began < .seconds(20))
        #expect(await StorageClosing.finish(within: .seconds(30)) { await Task.yield() })
    }
}
