import Foundation
import NIOConcurrencyHelpers

/// The attempts of a ``MemoryStorage``, by key, at most ``capacity`` keys. A full table first
/// forgets the keys whose attempts have all left their window, then the keys below their limit
/// used least recently, an address's before an account's, and only then the full ones (a locked
/// account or address), down to nine tenths of the capacity: a flood of new keys forgets what is
/// stale, not a lock, and an account's count last.
final class MemoryAttempts: Sendable {
    static let capacity = 100_000

    private struct Key {
        var attempts: [(id: String, at: Date)] = []
        var lastUsed: Date
        /// Whether the key held its limit when last tried.
        var full = false
    }

    private struct Table {
        var keys: [String: Key] = [:]
        /// The keys each attempt was counted under, so that forgetting one reads no other key.
        var keysByAttempt: [String: [String]] = [:]
    }

    private let table = NIOLockedValueBox(Table())
    private let capacity: Int

    init(capacity: Int = MemoryAttempts.capacity) {
        self.capacity = capacity
    }

    func count(_ limits: [AttemptLimit], id: String, now: Date, since: Date) -> Date? {
        table.withLockedValue { table in
            var oldestBlocking: Date?
            for limit in limits {
                let recent = table.keys[limit.key]?.attempts.filter { $0.at > since } ?? []
                if recent.count >= limit.limit, let oldest = recent.first?.at {
                    oldestBlocking = max(oldestBlocking ?? oldest, oldest)
                    table.keys[limit.key]?.lastUsed = now
                    table.keys[limit.key]?.full = true
                }
            }
            if let oldestBlocking { return oldestBlocking }
            if table.keys.count + limits.count > capacity { evict(&table, since: since) }
            for limit in limits {
                var key = table.keys[limit.key] ?? Key(lastUsed: now)
                for stale in key.attempts where stale.at <= since { table.keysByAttempt[stale.id] = nil }
                key.attempts.removeAll { $0.at <= since }
                key.attempts.append((id, now))
                key.lastUsed = now
                key.full = key.attempts.count >= limit.limit
                table.keys[limit.key] = key
            }
            table.keysByAttempt[id] = limits.map(\.key)
            return nil
        }
    }

    func forget(id: String) {
        table.withLockedValue { table in
            for name in table.keysByAttempt.removeValue(forKey: id) ?? [] {
                table.keys[name]?.attempts.removeAll { $0.id == id }
                table.keys[name]?.full = false
            }
        }
    }

    func prune(before date: Date) {
        table.withLockedValue { table in
            table.keys = table.keys.compactMapValues { key in
                var key = key
                key.attempts.removeAll { $0.at < date }
                return key.attempts.isEmpty ? nil : key
            }
            table.keysByAttempt = table.keysByAttempt.filter { _, names in names.contains { table.keys[$0] != nil } }
        }
    }

    /// How many keys are kept.
    var keyCount: Int { table.withLockedValue { $0.keys.count } }

    private func evict(_ table: inout Table, since: Date) {
        table.keys = table.keys.filter { $0.value.attempts.contains { $0.at > since } }
        let target = capacity * 9 / 10
        if table.keys.count > target {
            let order = { (entry: (key: String, value: Key)) in
                (entry.value.full ? 2 : Self.isAccountKey(entry.key) ? 1 : 0, entry.value.lastUsed)
            }
            let oldest = table.keys.sorted { order($0) < order($1) }.prefix(table.keys.count - target).map(\.key)
            for name in oldest { table.keys[name] = nil }
        }
        let kept = table.keys
        table.keysByAttempt = table.keysByAttempt.filter { _, names in names.contains { kept[$0] != nil } }
    }

    /// Whether a key counts an account's attempts (which guard its password), not an address's.
    private static func isAccountKey(_ key: String) -> Bool {
        key.hasPrefix("account:") || key.hasPrefix("code-account:")
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
