import MovieContract

/// Whether a catalog import may give a stored movie's id to another film. Ids are how catalogs
/// name movies, so a file numbered from 1 (a synthetic catalog, another operator's export) would
/// silently turn the movies already stored under those ids, and every watchlist that holds them,
/// into other films: `marquee catalog import` refuses that unless told `--replace`.
public enum CatalogReplacement: Sendable, Hashable {
    /// Any stored movie may be replaced by the file's movie of the same id.
    case allowed
    /// A stored movie may be updated (a corrected title, new figures, another cast), not replaced
    /// by another film.
    case refused

    /// Whether `imported` is another film than `stored`, which has its id: both its title (folded
    /// as search folds it) and its release date differ. A corrected title keeps its date, and a
    /// corrected date keeps its title.
    public static func isAnotherFilm(_ imported: CatalogMovie, stored: CatalogMovie) -> Bool {
        imported.releaseDate != stored.releaseDate
            && SearchText.words(imported.name) != SearchText.words(stored.name)
    }

    /// The first movie of an import that would have replaced another film.
    public struct Conflict: Sendable, Hashable {
        public var id: Int
        public var stored: CatalogMovie
        public var imported: CatalogMovie
    }
}
