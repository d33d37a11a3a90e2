import NIOConcurrencyHelpers

/// A token bucket per client address: each holds up to a minute's traces and refills at that
/// rate. Only a request whose trace the sampling decision asked for takes a token, so an address
/// that sends no `traceparent` is never kept; when more than ``maximumAddresses`` are, the full
/// buckets are forgotten (a full bucket is what a new one is), and if none is, all of them.
final class TraceAllowance: Sendable {
    static let maximumAddresses = 10_000

    private struct Bucket {
        var tokens: Double
        var refilled: ContinuousClock.Instant
    }

    private let perMinute: Double
    private let buckets = NIOLockedValueBox<[String: Bucket]>([:])

    init(perMinute: Int) {
        self.perMinute = Double(perMinute)
    }

    /// Takes a token from `party`'s bucket; false when it is empty.
    func take(for party: String, now: ContinuousClock.Instant = .now) -> Bool {
        guard perMinute > 0 else { return false }
        return buckets.withLockedValue { buckets in
            var bucket = buckets[party] ?? Bucket(tokens: perMinute, refilled: now)
            let elapsed = (now - bucket.refilled) / .seconds(60)
            bucket.tokens = min(perMinute, bucket.tokens + max(elapsed, 0) * perMinute)
            bucket.refilled = now
            guard bucket.tokens >= 1 else {
                buckets[party] = bucket
                return false
            }
            bucket.tokens -= 1
            if buckets[party] == nil, buckets.count >= Self.maximumAddresses {
                Self.forgetFull(&buckets, now: now, perMinute: perMinute)
            }
            buckets[party] = bucket
            return true
        }
    }

    private static func forgetFull(_ buckets: inout [String: Bucket], now: ContinuousClock.Instant, perMinute: Double) {
        buckets = buckets.filter { _, bucket in
            bucket.tokens + (now - bucket.refilled) / .seconds(60) * perMinute < perMinute
        }
        if buckets.count >= maximumAddresses { buckets.removeAll() }
    }
}
