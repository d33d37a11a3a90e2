import Foundation
import GRDB
import MovieContract
import Movies

/// The watchlist tables, through their records (``OutboxChange``, ``KnownWatchlistEntry``,
/// ``WatchlistPullState``, ``StoreDevice``): recording a change in the outbox, reading what to
/// send, acknowledging it, keeping the server's state, and the view that joins them.
enum WatchlistStoring {
    /// Writes a change to the outbox and returns it. Its time is this machine's clock, but always
    /// after the last change this store made to the movie on this API (by two milliseconds while
    /// that one waits, which the server may order one millisecond late) and after the movie's known
    /// state there (its entry, or when it left the list), so that a change made after seeing
    /// another wins over it, whatever the two clocks say. Other
    /// movies and other APIs do not count: one entry stamped far in the future holds back only
    /// its own movie.
    ///
    /// An addition with no `note` keeps the note the movie has now on this machine's view of the
    /// list: its latest pending change's, else the server's last known one.
    static func record(movieID: Int, action: WatchlistChangeRecord.Action, note: String?, api: String, now: Date, in db: Database) throws -> WatchlistChangeRecord {
        let apiID = try StoredAPI.id(making: api, in: db)
        let ofMovie = OutboxChange.filter(OutboxChange.Columns.apiId == apiID && OutboxChange.Columns.movieId == movieID)
        let latestSent = try ofMovie.select(max(OutboxChange.Columns.changedAt), as: Int64?.self).fetchOne(db) ?? nil
        let known = try KnownWatchlistEntry.fetchOne(db, key: ["apiId": apiID, "movieId": movieID])
        let removedAt = try WatchlistRemovals.at(movieID, apiID: apiID, in: db)
        // A change still waiting may be ordered a millisecond after its own time, when it wins a
        // tie with another device (WatchlistPlan.order): the next one is stamped after that.
        let latest = [latestSent.map { $0 + 1 }, known?.changedAt, removedAt].compactMap { $0 }.max() ?? 0
        let lastPending = try ofMovie.order(OutboxChange.Columns.sequence.desc).fetchOne(db)
        let currentNote = lastPending.map { $0.action == .add ? $0.note : "" } ?? known?.note ?? ""
        let record = WatchlistChangeRecord(
            id: UUID().uuidString.lowercased(), movieID: movieID, action: action, note: action == .add ? note ?? currentNote : "",
            changedAt: min(max(WatchlistClock.now(now), latest + 1), WatchlistClock.latest), device: try StoreDevice.current(in: db)
        )
        var row = OutboxChange(record, apiID: apiID)
        try row.insert(db)
        return record
    }

    /// Drops every change waiting for `api`; how many there were.
    static func discardPending(api: String, in db: Database) throws -> Int {
        guard let apiID = try StoredAPI.id(of: api, in: db) else { return 0 }
        return try OutboxChange.filter(OutboxChange.Columns.apiId == apiID).deleteAll(db)
    }

    /// The first `limit` changes waiting for `api`, oldest first.
    static func pending(api: String, limit: Int, in db: Database) throws -> [WatchlistChangeRecord] {
        guard let apiID = try StoredAPI.id(of: api, in: db) else { return [] }
        return try OutboxChange.filter(OutboxChange.Columns.apiId == apiID).order(OutboxChange.Columns.sequence)
            .limit(limit).fetchAll(db).map(\.change)
    }

    /// Takes `acknowledged` out of the outbox and writes the ones the server applied into the
    /// known state, so that the list is right before the next pull; unless the store already knows
    /// a later state of the movie (the live feed brought another device's newer change while the
    /// answer was on its way), which stays.
    static func acknowledge(_ acknowledged: [(WatchlistChangeRecord, applied: Bool)], api: String, in db: Database) throws {
        let apiID = try StoredAPI.id(making: api, in: db)
        for (change, applied) in acknowledged {
            try OutboxChange.filter(OutboxChange.Columns.changeId == change.id).deleteAll(db)
            guard applied else { continue }
            let known = try KnownWatchlistEntry.fetchOne(db, key: ["apiId": apiID, "movieId": change.movieID])
            let removedAt = try WatchlistRemovals.at(change.movieID, apiID: apiID, in: db)
            if [known?.changedAt, removedAt].compactMap({ $0 }).contains(where: { $0 > change.changedAt }) { continue }
            switch change.action {
            case .add:
                let entry = KnownWatchlistEntry(
                    apiId: apiID, movieId: change.movieID, note: change.note, changedAt: change.changedAt, title: known?.title, year: known?.year
                )
                try entry.save(db)
                try WatchlistChangeLog.note(before: known, after: entry, movieID: change.movieID, changedAt: change.changedAt, apiID: apiID, in: db)
            case .remove:
                try KnownWatchlistEntry.deleteOne(db, key: ["apiId": apiID, "movieId": change.movieID])
                try WatchlistRemovals.note(change.movieID, at: change.changedAt, apiID: apiID, in: db)
                try WatchlistChangeLog.note(before: known, after: nil, movieID: change.movieID, changedAt: change.changedAt, apiID: apiID, in: db)
            }
        }
    }

    /// Takes in the server's list: merged movie by movie when the server sent its removals
    /// (``WatchlistMerging``), else taken as it is.
    static func replace(
        _ items: [WatchlistItem], removals: [Int: Int64]?, entityTag: String?, feedPosition: Int64?, api: String, at date: Date, askedAt position: Int64?,
        in db: Database
    ) throws {
        let apiID = try StoredAPI.id(making: api, in: db)
        if let removals {
            try WatchlistMerging.merge(items, removals: removals, apiID: apiID, at: date, askedAt: position, in: db)
        } else {
            try takeAsItIs(items, apiID: apiID, at: date, in: db)
        }
        try WatchlistPullState(apiId: apiID, entityTag: entityTag, pulledAt: date.timeIntervalSince1970, serverHasNone: false, feedPosition: feedPosition).save(db)
    }

    /// The list of a server that does not send its removals: what it lists is the list.
    private static func takeAsItIs(_ items: [WatchlistItem], apiID: Int64, at date: Date, in db: Database) throws {
        var before = Dictionary(try KnownWatchlistEntry.of(apiID: apiID).fetchAll(db).map { ($0.movieId, $0) }) { first, _ in first }
        try KnownWatchlistEntry.of(apiID: apiID).deleteAll(db)
        for item in items {
            let known = before.removeValue(forKey: item.movieID)
            let entry = KnownWatchlistEntry(
                apiId: apiID, movieId: item.movieID, note: item.note, changedAt: item.changedAt,
                title: item.title ?? known?.title, year: item.year ?? known?.year
            )
            try entry.save(db)
            try WatchlistChangeLog.note(before: known, after: entry, movieID: item.movieID, changedAt: item.changedAt, apiID: apiID, in: db)
        }
        for (movieID, gone) in before.sorted(by: { $0.key < $1.key }) {
            try WatchlistChangeLog.note(before: gone, after: nil, movieID: movieID, changedAt: WatchlistClock.now(date), apiID: apiID, in: db)
        }
    }

    static func confirm(api: String, at date: Date, in db: Database) throws {
        let apiID = try StoredAPI.id(making: api, in: db)
        guard var state = try WatchlistPullState.fetchOne(db, key: apiID) else { return }
        state.pulledAt = date.timeIntervalSince1970
        state.serverHasNone = false
        try state.update(db)
    }

    static func entityTag(api: String, in db: Database) throws -> String? {
        guard let apiID = try StoredAPI.id(of: api, in: db) else { return nil }
        return try WatchlistPullState.fetchOne(db, key: apiID)?.entityTag
    }

    static func markServerHasNone(api: String, in db: Database) throws {
        let apiID = try StoredAPI.id(making: api, in: db)
        var state = try WatchlistPullState.fetchOne(db, key: apiID) ?? WatchlistPullState(apiId: apiID, serverHasNone: true)
        state.serverHasNone = true
        try state.save(db)
    }

    static func view(api: String, withShelf: Bool, in db: Database) throws -> WatchlistView {
        guard let apiID = try StoredAPI.id(of: api, in: db) else {
            return WatchlistView(lines: [], pendingChanges: 0, pulledAt: nil, serverHasNone: false)
        }
        var lines: [Int: WatchlistView.Line] = [:]
        var known: [Int: KnownWatchlistEntry] = [:]
        for entry in try KnownWatchlistEntry.of(apiID: apiID).fetchAll(db) {
            known[entry.movieId] = entry
            lines[entry.movieId] = WatchlistView.Line(movieID: entry.movieId, note: entry.note, changedAt: entry.changedAt, pending: nil)
        }
        let pending = try self.pending(api: api, limit: Int.max, in: db)
        for change in pending {
            switch change.action {
            case .add:
                lines[change.movieID] = WatchlistView.Line(movieID: change.movieID, note: change.note, changedAt: change.changedAt, pending: .adding)
            case .remove:
                if var line = lines[change.movieID], line.pending != .adding {
                    line.pending = .removing
                    line.changedAt = change.changedAt
                    lines[change.movieID] = line
                } else {
                    lines[change.movieID] = nil
                }
            }
        }
        for id in Array(lines.keys) {
            lines[id]?.movie = try MovieReading.movie(id: id, api: WatchlistScope.api(of: api), in: db)?.value
            lines[id]?.title = known[id]?.title
            lines[id]?.year = known[id]?.year
        }
        let state = try WatchlistPullState.fetchOne(db, key: apiID)
        var view = WatchlistView(
            lines: lines.values.sorted { ($0.changedAt, $1.movieID) > ($1.changedAt, $0.movieID) },
            pendingChanges: pending.count,
            pulledAt: state?.pulledDate,
            serverHasNone: state?.serverHasNone ?? false
        )
        view.shelf = withShelf ? try ShelfOverview.read(api: api, in: db) : try ShelfOverview.ratings(api: api, in: db)
        return view
    }
}
