import GRDB
import MovieContract
import Movies

extension StoreMigrations {
    /// Schema v12: titles are found as people say them (``SearchText/titleWords(_:)``): an article
    /// written last comes first and dotted initials are one word. The movies whose words can change
    /// (a comma or a dot in the title, a dot in a cast name) are indexed again; an index of each
    /// API's title words reads the titles that begin with a search's words.
    static func indexTitleWords(_ db: Database) throws {
        let rows = try Row.fetchAll(db, sql: """
            SELECT rowid, apiId, id, name FROM movie WHERE name LIKE '%,%' OR name LIKE '%.%' OR EXISTS (
                SELECT 1 FROM castMember JOIN actor ON actor.id = castMember.actorId
                WHERE castMember.apiId = movie.apiId AND castMember.movieId = movie.id AND actor.name LIKE '%.%')
            """)
        for row in rows {
            let rowID: Int64 = row["rowid"]
            let cast = try String.fetchAll(db, sql: """
                SELECT actor.name FROM castMember JOIN actor ON actor.id = castMember.actorId
                WHERE castMember.apiId = ? AND castMember.movieId = ? ORDER BY castMember.position
                """, arguments: [row["apiId"] as Int64, row["id"] as Int])
            let indexed = SearchText.Indexed(title: row["name"], cast: cast)
            try db.execute(sql: "UPDATE movie SET titleWords = ? WHERE rowid = ?", arguments: [indexed.titleWords, rowID])
            try db.execute(sql: "DELETE FROM movieWords WHERE rowid = ?", arguments: [rowID])
            try db.execute(sql: "INSERT INTO movieWords (rowid, titleWords, castWords) VALUES (?, ?, ?)", arguments: [rowID, indexed.titleWords, indexed.castWords])
        }
        try db.execute(sql: "CREATE INDEX movie_on_apiId_titleWords ON movie (apiId, titleWords)")
    }
}
