import Foundation
import GRDB

/// What this process read from the store and showed, not yet written down: the movies and lists
/// by API. A read does not write (a write transaction would cost a read many times over); the
/// uses are stamped on the next write of this store, or by ``MovieStore/recordUses()``.
final class PendingUses: @unchecked Sendable {
    private let lock = NSLock()
    private var movies: [MovieStore.APIKey: Set<Int>] = [:]
    private var lists: [MovieStore.APIKey: Set<String>] = [:]
    private var count = 0

    /// How many uses wait before a read asks for them to be written.
    static let flushThreshold = 4_096

    /// Notes that `ids` of `api` were shown; true when enough wait that they should be written.
    func noteMovies<IDs: Sequence<Int>>(_ ids: IDs, api: MovieStore.APIKey) -> Bool {
        lock.withLock {
            for id in ids where movies[api, default: []].insert(id).inserted { count += 1 }
            return count >= Self.flushThreshold
        }
    }

    /// Notes that the stored answer to `query` of `api` was shown.
    func noteList(_ query: ListQuery, api: MovieStore.APIKey) {
        lock.withLock {
            if lists[api, default: []].insert(query.key).inserted { count += 1 }
        }
    }

    var isEmpty: Bool { lock.withLock { count == 0 } }

    /// Takes every pending use (they are no longer pending) for a write to stamp.
    func take() -> (movies: [MovieStore.APIKey: Set<Int>], lists: [MovieStore.APIKey: Set<String>]) {
        lock.withLock {
            defer { movies = [:]; lists = [:]; count = 0 }
            return (movies, lists)
        }
    }

    /// Gives back uses a write could not stamp (it failed), so the next one does.
    func restore(_ taken: (movies: [MovieStore.APIKey: Set<Int>], lists: [MovieStore.APIKey: Set<String>])) {
        lock.withLock {
            for (api, ids) in taken.movies { for id in ids where movies[api, default: []].insert(id).inserted { count += 1 } }
            for (api, keys) in taken.lists { for key in keys where lists[api, default: []].insert(key).inserted { count += 1 } }
        }
    }

    /// Stamps `taken`, if it holds any use, with the next tick of the use clock, in the caller's
    /// write transaction.
    static func stamp(_ taken: (movies: [MovieStore.APIKey: Set<Int>], lists: [MovieStore.APIKey: Set<String>]), in db: Database) throws {
        guard !taken.movies.isEmpty || !taken.lists.isEmpty else { return }
        try stamp(taken, tick: UseClock.next(in: db), in: db)
    }

    /// Stamps `taken` with `tick` in the caller's write transaction; an API or a thing no longer
    /// stored is passed over.
    static func stamp(_ taken: (movies: [MovieStore.APIKey: Set<Int>], lists: [MovieStore.APIKey: Set<String>]), tick: Int64, in db: Database) throws {
        let touchMovie = try db.cachedStatement(sql: "UPDATE movie SET lastUsed = ? WHERE apiId = ? AND id = ? AND lastUsed < ?")
        let touchList = try db.cachedStatement(sql: "UPDATE listSnapshot SET lastUsed = ? WHERE apiId = ? AND query = ? AND lastUsed < ?")
        for (api, ids) in taken.movies {
            guard let apiID = try StoredAPI.id(of: api, in: db) else { continue }
            for id in ids { try touchMovie.execute(arguments: [tick, apiID, id, tick]) }
        }
        for (api, keys) in taken.lists {
            guard let apiID = try StoredAPI.id(of: api, in: db) else { continue }
            for key in keys { try touchList.execute(arguments: [tick, apiID, key, tick]) }
        }
    }
}
