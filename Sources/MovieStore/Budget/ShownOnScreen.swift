import Foundation
import GRDB

/// What a screen shows now, which eviction never removes while the process that shows it runs:
/// the stored lists on screen (kept whole) and the movies in view (a list's, a search's, an open
/// movie's).
public struct ShownOnScreen: Sendable, Hashable {
    public var lists: Set<ListQuery>
    public var movieIDs: Set<Int>

    public init(lists: Set<ListQuery> = [], movieIDs: Set<Int> = []) {
        self.lists = lists
        self.movieIDs = movieIDs
    }

    public static let nothing = ShownOnScreen()

    /// Makes this what `process` shows of `api`, replacing what it showed before.
    func record(api: MovieStore.APIKey, process: Int32, in db: Database) throws {
        try db.execute(sql: "DELETE FROM shownMovie WHERE process = ?", arguments: [process])
        try db.execute(sql: "DELETE FROM shownList WHERE process = ?", arguments: [process])
        guard !lists.isEmpty || !movieIDs.isEmpty else { return }
        let apiID = try StoredAPI.id(making: api, in: db)
        let pinMovie = try db.cachedStatement(sql: "INSERT OR IGNORE INTO shownMovie (process, apiId, movieId) VALUES (?, ?, ?)")
        for id in movieIDs { try pinMovie.execute(arguments: [process, apiID, id]) }
        let pinList = try db.cachedStatement(sql: "INSERT OR IGNORE INTO shownList (process, apiId, query) VALUES (?, ?, ?)")
        for list in lists { try pinList.execute(arguments: [process, apiID, list.key]) }
    }
}

/// The processes whose screens pin movies and lists in the store, and whether each still runs.
enum ScreenProcesses {
    /// Forgets what processes that ended (killed, or quit without clearing) showed.
    static func forgetEnded(in db: Database) throws {
        let processes = try Int32.fetchAll(db, sql: "SELECT process FROM shownMovie UNION SELECT process FROM shownList")
        for process in processes where !isRunning(process) {
            try db.execute(sql: "DELETE FROM shownMovie WHERE process = ?", arguments: [process])
            try db.execute(sql: "DELETE FROM shownList WHERE process = ?", arguments: [process])
        }
    }

    /// Whether a process with this id runs on this machine (`kill` with no signal; a process of
    /// another user answers EPERM, and runs).
    static func isRunning(_ process: Int32) -> Bool {
        process > 0 && (kill(process, 0) == 0 || errno == EPERM)
    }
}
