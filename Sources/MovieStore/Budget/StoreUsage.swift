import GRDB

/// How much of the store's database file is in use: its pages, and those SQLite keeps free for
/// reuse after a deletion.
struct StoreUsage: Sendable, Hashable {
    var pageSize: Int64
    var pages: Int64
    var freePages: Int64

    /// The bytes of the pages that hold data: what eviction keeps within the budget.
    var usedBytes: Int64 { (pages - freePages) * pageSize }
    /// The size of the database file.
    var fileBytes: Int64 { pages * pageSize }

    static func read(in db: Database) throws -> StoreUsage {
        StoreUsage(
            pageSize: try Int64.fetchOne(db, sql: "PRAGMA page_size") ?? 4096,
            pages: try Int64.fetchOne(db, sql: "PRAGMA page_count") ?? 0,
            freePages: try Int64.fetchOne(db, sql: "PRAGMA freelist_count") ?? 0
        )
    }
}
