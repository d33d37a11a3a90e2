import GRDB

extension StoreMigrations {
    /// Schema v17: what a catalogue loaded from IMDb's data sets tells of a movie beside the
    /// original fields (its IMDb id, original title, runtime, genres and votes), kept so that a
    /// movie's page shows them offline too. Null where the API did not say.
    static func addMovieDetails(_ db: Database) throws {
        try db.execute(sql: """
            ALTER TABLE movie ADD COLUMN imdbId TEXT;
            ALTER TABLE movie ADD COLUMN originalTitle TEXT;
            ALTER TABLE movie ADD COLUMN runtimeMinutes INTEGER;
            ALTER TABLE movie ADD COLUMN genres TEXT;
            ALTER TABLE movie ADD COLUMN votes INTEGER;
            """)
    }
}
