import MovieContract
import Movies
import SearchPlanning

extension MovieStore {
    /// What a search of `request`'s words (of its year) probably meant, among `api`'s stored
    /// movies, by the server's rule (`DidYouMean`); numbers are read as years up to `latestYear`.
    public func suggestion(for request: MovieSearchRequest, latestYear: Int, api: APIKey) async throws(StoreError) -> SearchSuggestion? {
        let words = request.words
        guard !words.isEmpty else { return nil }
        return try await read { db in
            try DidYouMean.suggestion(for: words, year: request.year, latestYear: latestYear, in: StoreVocabulary(db: db, api: api))
        }
    }
}
