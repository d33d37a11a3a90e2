import Foundation
import GRDB
import MovieContract
import Movies

/// A server's list (with its removals) taken into the known list movie by movie, by version: for
/// each movie, the newer of what the store knows (an entry, or when it left the list) and what the
/// list says wins. A list read before the live feed's latest event arrives after it, so taking
/// it as it is would undo that event for a moment; merged, it undoes nothing. A known movie the
/// list says nothing of goes (the server no longer has it: a memory server started again, a
/// database restored), unless the store may have learned of it after the list was asked for: its
/// version is newer than anything the list names, or the store's change log noted it after the
/// position it stood at when the list was asked for (a version is a device's time, so an addition
/// committed after the list was read can be older than what the list names).
///
/// Every version the store keeps is one the server gave (the list, the feed, the time an
/// acknowledgement names), so the comparison is between the server's own orders.
enum WatchlistMerging {
    static func merge(_ items: [WatchlistItem], removals: [Int: Int64], apiID: Int64, at date: Date, askedAt position: Int64?, in db: Database) throws {
        let known = Dictionary(try KnownWatchlistEntry.of(apiID: apiID).fetchAll(db).map { ($0.movieId, $0) }) { first, _ in first }
        let knownRemovals = try WatchlistRemovals.all(apiID: apiID, in: db)
        let listed = Dictionary(items.map { ($0.movieID, $0) }) { first, _ in first }
        // In the order the changes were made, so that what a pull learned is told (the log, every
        // window's `.changed`) in the order it happened, the latest last.
        let changedAt = { (movieID: Int) -> Int64 in listed[movieID]?.changedAt ?? removals[movieID] ?? 0 }
        for movieID in Set(listed.keys).union(removals.keys).sorted(by: { (changedAt($0), $0) < (changedAt($1), $1) }) {
            let local = [known[movieID]?.changedAt, knownRemovals[movieID]].compactMap { $0 }.max()
            if let item = listed[movieID] {
                guard local.map({ $0 <= item.changedAt }) ?? true else { continue }
                let entry = KnownWatchlistEntry(
                    apiId: apiID, movieId: movieID, note: item.note, changedAt: item.changedAt,
                    title: item.title ?? known[movieID]?.title, year: item.year ?? known[movieID]?.year
                )
                try entry.save(db)
                try WatchlistChangeLog.note(before: known[movieID], after: entry, movieID: movieID, changedAt: item.changedAt, apiID: apiID, in: db)
            } else if let removedAt = removals[movieID] {
                guard local.map({ $0 <= removedAt }) ?? true else { continue }
                try KnownWatchlistEntry.deleteOne(db, key: ["apiId": apiID, "movieId": movieID])
                try WatchlistRemovals.note(movieID, at: removedAt, apiID: apiID, in: db)
                try WatchlistChangeLog.note(before: known[movieID], after: nil, movieID: movieID, changedAt: removedAt, apiID: apiID, in: db)
            }
        }
        let newestNamed = (items.map(\.changedAt) + removals.values).max()
        let learnedSince = try position.map { position in
            Set(try Int.fetchAll(db, sql: "SELECT DISTINCT movieId FROM watchlistChangeLog WHERE apiId = ? AND sequence > ?", arguments: [apiID, position]))
        } ?? []
        for (movieID, entry) in known.sorted(by: { $0.key < $1.key }) where listed[movieID] == nil && removals[movieID] == nil {
            if let newestNamed, entry.changedAt > newestNamed { continue }
            if learnedSince.contains(movieID) { continue }
            try KnownWatchlistEntry.deleteOne(db, key: ["apiId": apiID, "movieId": movieID])
            try WatchlistChangeLog.note(before: entry, after: nil, movieID: movieID, changedAt: WatchlistClock.now(date), apiID: apiID, in: db)
        }
    }
}
