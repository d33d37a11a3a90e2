import GRDB

/// Gives the disk back the pages a store no longer needs. A store is made with SQLite's
/// incremental vacuum, so that pages freed by eviction beyond the budget (after the budget was
/// lowered) can be cut from the end of the file a few at a time; below the budget they stay free
/// for the next writes to reuse.
enum FileShrinking {
    /// The most pages one step gives back (16 MB of 4 KB pages), to keep the step short.
    static let pagesPerStep: Int64 = 4_096

    /// Makes a new store incrementally vacuumable (it must be set before the first table), and
    /// converts one made before the budget, once, with a `VACUUM`; one that cannot be converted
    /// now (another process reads it) is converted another time, and works as it is meanwhile.
    static func enable(in pool: DatabasePool) throws {
        try pool.writeWithoutTransaction { db in
            guard try Int.fetchOne(db, sql: "PRAGMA auto_vacuum") == 0 else { return }
            // In WAL mode even a new, empty file takes the setting only through a VACUUM,
            // which is instant for it.
            try db.execute(sql: "PRAGMA auto_vacuum = INCREMENTAL")
            try? db.execute(sql: "VACUUM")
        }
    }

    /// Cuts free pages from the end of the file while it is larger than `bytes`.
    static func giveBackPages(beyond bytes: Int64, in db: Database) throws {
        let usage = try StoreUsage.read(in: db)
        let over = (usage.fileBytes - bytes) / usage.pageSize
        let pages = min(usage.freePages, over, pagesPerStep)
        guard pages > 0 else { return }
        try db.execute(sql: "PRAGMA incremental_vacuum(\(pages))")
    }
}
