import Foundation
import NIOConcurrencyHelpers

/// A wall clock that a test moves by hand, to expire tokens or age stored data without waiting.
public final class ManualClock: Sendable {
    private let current: NIOLockedValueBox<Date>

    public init(_ start: Date = Date(timeIntervalSince1970: 1_800_000_000)) {
        current = NIOLockedValueBox(start)
    }

    /// The clock's reading, as a closure to inject where a `() -> Date` is asked for.
    public var now: @Sendable () -> Date { { self.current.withLockedValue { $0 } } }

    public func advance(by seconds: TimeInterval) {
        current.withLockedValue { $0 = $0.addingTimeInterval(seconds) }
    }
}
