import MovieContract
/// What importing a batch of movies must write, given what the database already holds: new
/// movies, and movies whose fields or cast differ. Identical movies are not written, so
/// importing the same file twice changes nothing.
package struct CatalogImportPlan {
    package var moviesToWrite: [CatalogMovie] = []
    /// The movies already stored whose fields or cast differ: their old casts must go.
    package var changedIDs: [Int] = []
    package var added = 0
    package var changed = 0
    package var unchanged = 0

    /// Fails, planning nothing, when `replacement` is ``CatalogReplacement/refused`` and the batch
    /// gives a stored movie's id to another film (``CatalogReplacement/isAnotherFilm(_:stored:)``).
    package init(batch: [CatalogMovie], existing: [Int: CatalogMovie], replacement: CatalogReplacement = .allowed) throws(StorageError) {
        for movie in batch {
            switch existing[movie.id] {
            case nil:
                added += 1
                moviesToWrite.append(movie)
            case movie?:
                unchanged += 1
            case let stored?:
                if replacement == .refused, CatalogReplacement.isAnotherFilm(movie, stored: stored) {
                    throw .wouldReplaceMovies(CatalogReplacement.Conflict(id: movie.id, stored: stored, imported: movie))
                }
                changed += 1
                changedIDs.append(movie.id)
                moviesToWrite.append(movie)
            }
        }
    }
}

/// What a catalog import did.
public struct CatalogImportSummary: Sendable, Hashable, CustomStringConvertible {
    public var added = 0
    public var changed = 0
    public var unchanged = 0

    public init(added: Int = 0, changed: Int = 0, unchanged: Int = 0) {
        self.added = added
        self.changed = changed
        self.unchanged = unchanged
    }

    public var total: Int { added + changed + unchanged }

    public var description: String { "\(added) added, \(changed) changed, \(unchanged) unchanged" }

    package mutating func add(_ plan: CatalogImportPlan) {
        added += plan.added
        changed += plan.changed
        unchanged += plan.unchanged
    }
}
