import MovieContract

/// A stored movie's genres as ``MovieFilter/genreBits(_:)`` gives them, kept in `movie.genreBits`.
enum StoredGenres {
    /// SQL giving the bits of the comma-separated genres in `column`, for rows stored before the bits were.
    static func bitsExpression(of column: String) -> String {
        CatalogMovieDetails.knownGenres.enumerated().map { bit, genre in
            "((instr(',' || \(column) || ',', ',\(genre),') > 0) << \(bit))"
        }.joined(separator: " | ")
    }
}
