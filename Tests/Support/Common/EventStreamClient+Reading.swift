import Synchronization
@testable import Networking

extension EventStreamClient {
    /// The items from now until `done` holds for them; then the reading task is cancelled, as a
    /// reader that stops is, so that the client stops too (a loop that only breaks would leave it
    /// running).
    public func items(until done: @escaping @Sendable ([Item]) -> Bool) async -> [Item] {
        let stream = items(from: nil)
        let reader = Task {
            var items: [Item] = [], finished = false
            // Cancelled, the reader's next wait for an item ends the stream, and the client's task.
            for await item in stream where !finished {
                items.append(item)
                if done(items) {
                    finished = true
                    withUnsafeCurrentTask { $0?.cancel() }
                }
            }
            return items
        }
        return await reader.value
    }

    /// The same client, with each wait recorded in `waits` instead of slept, until `count` waits
    /// were recorded or they add up to `window`: that wait lasts until the reading task is
    /// cancelled, as a real wait that long would outlast the test.
    public func counting(waits: RecordedWaits, upTo count: Int = .max, window: Duration = .seconds(3_600)) -> EventStreamClient {
        var client = self
        client.sleep = { wait in
            let (number, total) = waits.record(wait)
            if number >= count || total >= window { try await Task.sleep(for: .seconds(3_600)) }
        }
        return client
    }
}

/// The waits an ``EventStreamClient`` asked for.
public final class RecordedWaits: Sendable {
    private let recorded = Mutex<[Duration]>([])

    public init() {}

    public var all: [Duration] { recorded.withLock { $0 } }

    /// Adds `wait`; how many waits and how long they add up to so far.
    public func record(_ wait: Duration) -> (count: Int, total: Duration) {
        recorded.withLock { waits in
            waits.append(wait)
            return (waits.count, waits.reduce(.zero, +))
        }
    }
}
