import GRDB
import MovieContract

extension StoreMigrations {
    /// Schema v18: each API's movies in every order a page is sorted by (grossing, rating, release,
    /// title), each index holding what a filter reads (year, runtime, votes, genres as bits,
    /// rating), so that a filtered page walks one index in its order and reads a movie's row only
    /// when it passes. Before, a page by rating, release or title sorted every stored movie (150 to
    /// 230 ms at 100,000 stored). And, kept by triggers, how many movies each API has stored (the
    /// count an offline search reports; counting them took 3 to 4 ms of each search) and a
    /// generation that grows whenever one of them comes, goes or changes in what a filter or a
    /// sort reads (``StoredFacets``); an API's first movie starts it at a random number, so that an
    /// API removed and stored again never meets the facets of its first life.
    static func addSortIndexes(_ db: Database) throws {
        try db.execute(sql: "ALTER TABLE movie ADD COLUMN genreBits INTEGER NOT NULL DEFAULT 0")
        try db.execute(sql: "UPDATE movie SET genreBits = \(StoredGenres.bitsExpression(of: "genres")) WHERE genres IS NOT NULL")
        try db.execute(sql: "DROP INDEX movie_on_apiId_grossing")
        try db.execute(sql: "DROP INDEX movie_on_apiId_titleWords")
        for index in StoredSortIndex.allCases { try db.execute(sql: index.definition) }
        let facetColumns = ["year", "runtimeMinutes", "votes", "genreBits", "rating", "grossing", "releaseDate", "titleKey", "titleWords", "id"]
        try db.execute(sql: """
            CREATE TABLE storedMovieCount (
                apiId INTEGER PRIMARY KEY REFERENCES api(id) ON DELETE CASCADE,
                count INTEGER NOT NULL,
                generation INTEGER NOT NULL DEFAULT 0
            );
            INSERT INTO storedMovieCount (apiId, count) SELECT apiId, count(*) FROM movie GROUP BY apiId;
            CREATE TRIGGER movieCountedIn AFTER INSERT ON movie BEGIN
                INSERT INTO storedMovieCount (apiId, count, generation) VALUES (NEW.apiId, 1, random())
                    ON CONFLICT (apiId) DO UPDATE SET count = count + 1, generation = generation + 1;
            END;
            CREATE TRIGGER movieCountedOut AFTER DELETE ON movie BEGIN
                UPDATE storedMovieCount SET count = count - 1, generation = generation + 1 WHERE apiId = OLD.apiId;
            END;
            CREATE TRIGGER movieFacetsChanged AFTER UPDATE ON movie
                WHEN \(facetColumns.map { "OLD.\($0) IS NOT NEW.\($0)" }.joined(separator: " OR ")) BEGIN
                UPDATE storedMovieCount SET generation = generation + 1 WHERE apiId = NEW.apiId;
            END;
            """)
    }
}
