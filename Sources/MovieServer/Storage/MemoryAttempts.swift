import Foundation
import NIOConcurrencyHelpers

/// The attempts of a ``MemoryStorage``, by key, at most ``capacity`` keys. A full table first
/// forgets the keys whose attempts have all left their window, then the keys below their limit
/// used least recently, and only then the full ones (a locked account or address), down to nine
/// tenths of the capacity: a flood of new keys forgets what is stale, not a lock.
final class MemoryAttempts: Sendable {
    static let capacity = 100_000

    private struct Key {
        var attempts: [(id: String, at: Date)] = []
        var lastUsed: Date
        /// Whether the key held its limit when last tried.
        var full = false
    }

    private let keys = NIOLockedValueBox<[String: Key]>([:])
    private let capacity: Int

    init(capacity: Int = MemoryAttempts.capacity) {
        self.capacity = capacity
    }

    func count(_ limits: [AttemptLimit], id: String, now: Date, since: Date) -> Date? {
        keys.withLockedValue { keys in
            var oldestBlocking: Date?
            for limit in limits {
                let recent = keys[limit.key]?.attempts.filter { $0.at > since } ?? []
                if recent.count >= limit.limit, let oldest = recent.first?.at {
                    oldestBlocking = max(oldestBlocking ?? oldest, oldest)
                    keys[limit.key]?.lastUsed = now
                    keys[limit.key]?.full = true
                }
            }
            if let oldestBlocking { return oldestBlocking }
            if keys.count + limits.count > capacity { evict(&keys, since: since) }
            for limit in limits {
                var key = keys[limit.key] ?? Key(lastUsed: now)
                key.attempts.removeAll { $0.at <= since }
                key.attempts.append((id, now))
                key.lastUsed = now
                key.full = key.attempts.count >= limit.limit
                keys[limit.key] = key
            }
            return nil
        }
    }

    func forget(id: String) {
        keys.withLockedValue { keys in
            for (name, key) in keys where key.attempts.contains(where: { $0.id == id }) {
                keys[name]?.attempts.removeAll { $0.id == id }
            }
        }
    }

    func prune(before date: Date) {
        keys.withLockedValue { keys in
            keys = keys.compactMapValues { key in
                var key = key
                key.attempts.removeAll { $0.at < date }
                return key.attempts.isEmpty ? nil : key
            }
        }
    }

    /// How many keys are kept.
    var keyCount: Int { keys.withLockedValue { $0.count } }

    private func evict(_ keys: inout [String: Key], since: Date) {
        keys = keys.filter { $0.value.attempts.contains { $0.at > since } }
        let target = capacity * 9 / 10
        guard keys.count > target else { return }
        let oldest = keys.sorted { ($0.value.full ? 1 : 0, $0.value.lastUsed) < ($1.value.full ? 1 : 0, $1.value.lastUsed) }
            .prefix(keys.count - target).map(\.key)
        for name in oldest { keys[name] = nil }
    }
}

extension MemoryStorage: AttemptStorage {
    public func countAttempt(_ limits: [AttemptLimit], id: String, now: Date, since: Date) -> Date? {
        attempts.count(limits, id: id, now: now, since: since)
    }

    public func forgetAttempt(id: String) {
        attempts.forget(id: id)
    }

    public func pruneAttempts(before date: Date) {
        attempts.prune(before: date)
    }
}
