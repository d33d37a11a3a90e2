import Foundation
import MovieContract
import NIOConcurrencyHelpers

/// The shelves of a ``MemoryStorage``: every owner's records of every kind, kept answers and seen
/// change ids behind one lock, so that a write is applied whole, as a database transaction would.
final class MemoryShelves: Sendable {
    private struct Owner {
        var entries: [String: [String: ShelfEntry]] = [:]
        var answers: [String: (fingerprint: [UInt8], answer: WatchlistAnswer, at: Date)] = [:]
        var seenChanges: [String: SeenChange] = [:]
        var prunedAt = Date.distantPast
    }

    private let owners = NIOLockedValueBox<[String: Owner]>([:])

    func page(owner: String, kind: String, after: String?, limit: Int, feed: MemoryFeedLog) -> ShelfRead {
        owners.withLockedValue { owners in
            // Keys compare by their bytes, as the databases' do.
            let entries = (owners[owner]?.entries[kind]?.values.filter { entry in after.map { $0.utf8.lexicographicallyPrecedes(entry.key.utf8) } ?? true } ?? [])
                .sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
            return ShelfRead(entries: Array(entries.prefix(limit)), feedPosition: feed.bounds.latest, more: entries.count > limit)
        }
    }

    func apply(_ write: ShelfWrite, now: Date, feed: MemoryFeedLog, knownMovies: (Set<Int>) -> Set<Int>) -> WatchlistAnswer {
        let known = knownMovies(Set(write.movies.values))
        let keys = Set(write.changes.map(\.key))
        let answerKey = write.kind + "\u{0}" + write.key
        return owners.withLockedValue { owners in
            // Taken out while it changes, so that its dictionaries are not copied on each write.
            var owner = owners.removeValue(forKey: write.owner) ?? Owner()
            if now.timeIntervalSince(owner.prunedAt) > 600 {
                owner.answers = owner.answers.filter { now.timeIntervalSince($0.value.at) < WatchlistRetention.keys }
                owner.prunedAt = now
            }
            let kept = owner.entries[write.kind] ?? [:]
            let state = ShelfState(
                storedRequest: owner.answers[answerKey].map { ($0.fingerprint, $0.answer) },
                seenChanges: Dictionary(write.changes.compactMap { change in owner.seenChanges[Self.seenKey(change)].map { (change.id, $0) } }) { first, _ in first },
                entries: kept.filter { keys.contains($0.key) },
                knownMovies: known
            )
            var counted = state
            counted.recordCount = kept.count
            for group in Set(write.groups.values) {
                counted.groupCounts[group] = kept.values.count { !$0.removed && ShelfKeys.group(of: $0.key) == group }
            }
            if let parentKind = write.parentKind {
                let parents = owner.entries[parentKind] ?? [:]
                counted.knownParents = Set(write.parents.values.filter { parents[$0].map { !$0.removed } ?? false })
            }
            let plan = ShelfPlan(write, state: counted)
            for entry in plan.entries { owner.entries[write.kind, default: [:]][entry.key] = entry }
            feed.append(plan.entries.map { NewFeedEvent.shelf(owner: write.owner, kind: write.kind, entry: $0) }, now: now)
            for line in plan.journal {
                owner.seenChanges[Self.seenKey(line.change)] = SeenChange(fingerprint: line.change.fingerprint, orderedAt: line.orderedAt, outcome: line.outcome)
            }
            if plan.recordsAnswer { owner.answers[answerKey] = (write.fingerprint, plan.answer, now) }
            owners[write.owner] = owner
            return plan.answer
        }
    }

    func remove(owner: String) {
        _ = owners.withLockedValue { $0.removeValue(forKey: owner) }
    }

    private static func seenKey(_ change: ShelfChangeRecord) -> String {
        change.kind + "\u{0}" + change.id
    }
}
