import GRDB

/// The store's schema, as named migration steps, one function each. A step, once shipped, never
/// changes: a new need is a new step.
enum StoreMigrations {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration(firstStep, migrate: createTables)
        migrator.registerMigration("v2: every movie and list belongs to one API", migrate: keyRowsByAPI)
        migrator.registerMigration("v3: each answer's entity tag and max-age", migrate: addValidators)
        migrator.registerMigration("v4: each API named once, rows keyed by its integer id", migrate: keyRowsByAPIIdentifier)
        migrator.registerMigration("v5: stored movies searchable offline", migrate: indexForSearch)
        migrator.registerMigration("v6: a watchlist per API, changed offline through an outbox", migrate: addWatchlist)
        migrator.registerMigration("v7: search words in title and cast columns, movies by grossing", migrate: splitSearchColumns)
        migrator.registerMigration("v8: the title order compares a bounded key, as the server's", migrate: boundTitleKeys)
        migrator.registerMigration("v9: when each movie and list was last used, and what screens show, for the budget", migrate: trackUse)
        migrator.registerMigration("v10: where each watchlist's live feed stands", migrate: addLiveCursor)
        migrator.registerMigration("v11: the watchlist's titles as its server gave them, and a log of its changes for every window", migrate: addWatchlistLog)
        migrator.registerMigration("v12: titles as people say them, and an index of the titles' words", migrate: indexTitleWords)
        migrator.registerMigration("v13: when each movie left a known watchlist", migrate: addWatchlistRemovals)
        migrator.registerMigration("v14: nothing kept under the id of an API removed", migrate: removeAPILeftovers)
        migrator.registerMigration("v15: the live feed's position each list was read at", migrate: addListFeedPosition)
        migrator.registerMigration("v16: the shelf beyond the watchlist (ratings, …), kept and changed offline as the watchlist is", migrate: addShelf)
        migrator.registerMigration("v17: a movie's details from IMDb's data sets (id, original title, runtime, genres, votes)", migrate: addMovieDetails)
        migrator.registerMigration("v18: each API's movies in every sort's order, with what filters read", migrate: addSortIndexes)
        return migrator
    }

    /// The identifier of the first step, which every store has taken: how a file is recognised as one.
    static let firstStep = "v1: movies, shared actors, cast in billing order, list snapshots"
}
