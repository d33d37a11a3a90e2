import Foundation
import GRDB

extension MovieStore {
    /// Eviction starts when the pages in use pass this share of the budget…
    static let evictionStartShare = 0.95
    /// …and stops when they are back under this one, so that it runs now and then, not on every write.
    static let evictionStopShare = 0.90
    /// The most movies one step removes, in one short transaction: other processes' writes wait
    /// for no longer than that.
    static let moviesPerEvictionStep = 2_000

    /// Evicts, least recently used first, when the store holds more than its budget allows, in
    /// steps of its own transactions; then gives the file's free pages beyond the budget back to
    /// the disk. A step that fails leaves the store as it was, and the next write tries again.
    func keepWithinBudget() async {
        guard let budget = budget.bytes else { return }
        let start = Int64(Double(budget) * Self.evictionStartShare), stop = Int64(Double(budget) * Self.evictionStopShare)
        do {
            let usage = try await read { db in try StoreUsage.read(in: db) }
            if usage.usedBytes > start {
                try await evict(downTo: stop, from: start)
            } else if usage.fileBytes <= budget || usage.freePages == 0 {
                return
            }
            // The pages eviction freed, and those the search index frees as it merges its
            // segments, are cut from the end of the file once it passes the budget: below it they
            // stay free for the next writes.
            try await write { db in try FileShrinking.giveBackPages(beyond: start, in: db) }
        } catch {
            return
        }
    }

    /// Removes the least recently used until the pages in use are back under `stop`.
    private func evict(downTo stop: Int64, from start: Int64) async throws(StoreError) {
        // How many to remove is reckoned once, from the average movie's share of the pages in
        // use: removing rows frees pages only as they empty, and a loop that waited for the
        // count of pages to fall would remove far more than needed.
        var remaining = try await write { db -> Int in
            let usage = try StoreUsage.read(in: db)
            guard usage.usedBytes > start else { return 0 }
            let movies = try Int64.fetchOne(db, sql: "SELECT count(*) FROM movie") ?? 0
            let perMovie = max(usage.usedBytes / max(movies, 1), 256)
            return Int((usage.usedBytes - stop + perMovie - 1) / perMovie)
        }
        // A caller that is cancelled stops eviction between steps; the next write goes on.
        while remaining > 0, !Task.isCancelled {
            let step = EvictionStep(movies: min(remaining, Self.moviesPerEvictionStep))
            let removed = try await writeWithoutForeignKeyPrograms { db in try step.run(in: db) }
            guard removed.movies + removed.lists > 0 else { break }
            remaining -= max(removed.movies, 1)
        }
    }

    /// ``write(_:)`` with SQLite's foreign-key programs off for the transaction: for each movie
    /// removed they checked the lists and casts that name it and deleted its cast, half of an
    /// eviction step's time. `body` does what they did itself (``EvictionStep``).
    ///
    /// The write runs in a task of its own, so the caller's cancellation never reaches it: GRDB
    /// answers a cancellation by interrupting SQLite and refusing every statement but a rollback,
    /// which could leave the programs off for the connection's later writes, or report a
    /// committed step as failed. A step is short; it ends whole, and the programs are on again.
    func writeWithoutForeignKeyPrograms<Value: Sendable>(_ body: @escaping @Sendable (Database) throws -> Value) async throws(StoreError) -> Value {
        let taken = uses.take()
        let pool = pool
        do {
            return try await Task {
                try await pool.writeWithoutTransaction { db in
                    // The setting takes effect outside a transaction only.
                    try db.execute(sql: "PRAGMA foreign_keys = OFF")
                    let written = Result { () throws -> Value in
                        var value: Value?
                        try db.inTransaction(.immediate) {
                            try PendingUses.stamp(taken, in: db)
                            value = try body(db)
                            return .commit
                        }
                        return value!
                    }
                    try db.execute(sql: "PRAGMA foreign_keys = ON")
                    return try written.get()
                }
            }.value
        } catch {
            uses.restore(taken)
            throw StoreError(error, path: url.path)
        }
    }

    /// Writes down the uses read since the last write (a list or movie shown), so that eviction
    /// sees them; the app calls it before it exits. Nothing is written when there are none.
    public func recordUses() async throws(StoreError) {
        guard !uses.isEmpty else { return }
        try await write { _ in }
    }

    /// Makes `shown` what this process shows of `api`, until the next call or ``stopShowing()``;
    /// eviction never removes it while this process runs.
    public func show(_ shown: ShownOnScreen, api: APIKey) async throws(StoreError) {
        try await show(shown, api: api, process: getpid())
    }

    /// ``show(_:api:)`` as the process `process`.
    func show(_ shown: ShownOnScreen, api: APIKey, process: Int32) async throws(StoreError) {
        try await write { db in try shown.record(api: api, process: process, in: db) }
    }

    /// Forgets what this process shows.
    public func stopShowing() async throws(StoreError) {
        let process = getpid()
        try await write { db in try ShownOnScreen.nothing.record(api: "", process: process, in: db) }
    }

    /// What a run does last with its store: writes down the uses read since the last write, and
    /// brings the file back within its budget (the search index's merges may free pages after the
    /// last write's check).
    public func finishRun() async {
        try? await recordUses()
        await keepWithinBudget()
    }

    /// Notes that `ids` of `api` were shown; many pending uses are written at once.
    func noteUse(of ids: [Int], api: APIKey) async {
        guard uses.noteMovies(ids, api: api) else { return }
        try? await recordUses()
    }
}
