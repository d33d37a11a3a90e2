import GRDB
import MovieContract
import Movies

extension StoreMigrations {
    /// Schema v5: stored movies can be searched offline by the server's rules (``SearchText``):
    /// each movie's title words and folded title in its row, and all its words (title and cast)
    /// in the FTS5 table `movieSearch`, whose rowid is the movie row's. Movies stored before are
    /// indexed by this step.
    static func indexForSearch(_ db: Database) throws {
        try db.execute(sql: """
            ALTER TABLE movie ADD COLUMN titleWords TEXT NOT NULL DEFAULT '';
            ALTER TABLE movie ADD COLUMN titleKey TEXT NOT NULL DEFAULT '';
            CREATE VIRTUAL TABLE movieSearch USING fts5(allWords, tokenize = 'unicode61 remove_diacritics 0');
            """)
        let rows = try Row.fetchAll(db, sql: "SELECT rowid, apiId, id, name FROM movie")
        let casts = try Row.fetchAll(db, sql: """
            SELECT castMember.apiId, castMember.movieId, actor.name FROM castMember JOIN actor ON actor.id = castMember.actorId
            ORDER BY castMember.apiId, castMember.movieId, castMember.position
            """).reduce(into: [String: [String]]()) { casts, row in
            casts["\(row["apiId"] as Int64)/\(row["movieId"] as Int)", default: []].append(row["name"])
        }
        for row in rows {
            let rowID: Int64 = row["rowid"]
            let indexed = SearchText.Indexed(title: row["name"], cast: casts["\(row["apiId"] as Int64)/\(row["id"] as Int)"] ?? [])
            try db.execute(sql: "UPDATE movie SET titleWords = ?, titleKey = ? WHERE rowid = ?", arguments: [indexed.titleWords, indexed.titleKey, rowID])
            try db.execute(sql: "INSERT INTO movieSearch (rowid, allWords) VALUES (?, ?)", arguments: [rowID, indexed.allWords])
        }
    }
}
