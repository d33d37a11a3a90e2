import GRDB

extension StoreMigrations {
    /// Where each watchlist scope's live feed stands: the sequence of the last event applied, so
    /// that a replayed event changes nothing and a restarted reader resumes after it.
    static func addLiveCursor(_ db: Database) throws {
        try db.execute(sql: "CREATE TABLE liveCursor (apiId INTEGER PRIMARY KEY, sequence INTEGER NOT NULL)")
    }
}
