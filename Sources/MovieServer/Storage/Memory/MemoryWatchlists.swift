import Foundation
import NIOConcurrencyHelpers

/// The watchlists of a ``MemoryStorage``: every owner's entries, kept answers and log behind one
/// lock, so that a write is applied whole, as a database transaction would.
final class MemoryWatchlists: Sendable {
    private struct Owner {
        var entries: [Int: WatchlistEntry] = [:]
        var answers: [String: (fingerprint: [UInt8], answer: WatchlistAnswer, at: Date)] = [:]
        var seenChanges: [String: SeenChange] = [:]
        var journal: [WatchlistJournalEntry] = []
        var prunedAt = Date.distantPast
    }

    private let owners = NIOLockedValueBox<[String: Owner]>([:])

    /// The list, and the feed's last sequence, under the lock a write appends its events under.
    func read(owner: String, feed: MemoryFeedLog) -> WatchlistRead {
        owners.withLockedValue { owners in
            WatchlistRead(entries: WatchlistEntry.newestFirst(owners[owner].map { Array($0.entries.values) } ?? []), feedPosition: feed.bounds.latest)
        }
    }

    func apply(_ write: WatchlistWrite, now: Date, feed: MemoryFeedLog, knownMovies: (Set<Int>) -> Set<Int>) -> WatchlistAnswer {
        let movies = Set(write.changes.map(\.movieID))
        let known = knownMovies(movies)
        return owners.withLockedValue { owners in
            var owner = owners[write.owner] ?? Owner()
            if now.timeIntervalSince(owner.prunedAt) > 600 {
                owner.answers = owner.answers.filter { now.timeIntervalSince($0.value.at) < WatchlistRetention.keys }
                owner.prunedAt = now
            }
            let state = WatchlistState(
                storedRequest: owner.answers[write.key].map { ($0.fingerprint, $0.answer) },
                seenChanges: Dictionary(write.changes.compactMap { change in owner.seenChanges[change.id].map { (change.id, $0) } }) { first, _ in first },
                entries: owner.entries.filter { movies.contains($0.key) },
                knownMovies: known
            )
            let plan = WatchlistPlan(write, state: state)
            for entry in plan.entries { owner.entries[entry.movieID] = entry }
            feed.append(plan.entries.map { NewFeedEvent.watchlist(owner: write.owner, entry: $0) }, now: now)
            for line in plan.journal {
                owner.seenChanges[line.change.id] = SeenChange(fingerprint: line.change.fingerprint, orderedAt: line.orderedAt, outcome: line.outcome)
                owner.journal.append(WatchlistJournalEntry(changeID: line.change.id, movieID: line.change.movieID, outcome: line.outcome))
            }
            if plan.recordsAnswer { owner.answers[write.key] = (write.fingerprint, plan.answer, now) }
            owners[write.owner] = owner
            return plan.answer
        }
    }

    func journal(owner: String) -> [WatchlistJournalEntry] {
        owners.withLockedValue { $0[owner]?.journal ?? [] }
    }

    func remove(owner: String) {
        _ = owners.withLockedValue { $0.removeValue(forKey: owner) }
    }

    /// Moves `source`'s entries into `target`'s list, the later change winning per movie.
    func move(from source: String, to target: String, now: Date, feed: MemoryFeedLog) -> Int {
        owners.withLockedValue { owners in
            guard let moving = owners[source]?.entries, !moving.isEmpty else { return 0 }
            var receiving = owners[target] ?? Owner()
            var changed: [WatchlistEntry] = []
            for (movieID, entry) in moving.sorted(by: { $0.key < $1.key })
            where receiving.entries[movieID].map({ entry.version.changedAt > $0.version.changedAt }) ?? true {
                receiving.entries[movieID] = entry
                changed.append(entry)
            }
            owners[target] = receiving
            feed.append(changed.map { NewFeedEvent.watchlist(owner: target, entry: $0) }, now: now)
            owners[source]?.entries = [:]
            owners[source]?.answers = [:]
            return moving.count
        }
    }
}

extension WatchlistEntry {
    /// The order of a listed watchlist: the newest change first, then by movie id.
    static func newestFirst(_ entries: [WatchlistEntry]) -> [WatchlistEntry] {
        entries.sorted { ($0.version.changedAt, $1.movieID) > ($1.version.changedAt, $0.movieID) }
    }
}
