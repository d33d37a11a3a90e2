import Foundation
import MovieContract
import Movies

/// A suggestion for a search that found little, and whether the stored movies gave it.
public struct StoredSuggestion: Sendable, Hashable {
    public let suggestion: SearchSuggestion
    /// Whether the store's movies were searched for it (offline, or the network could not answer).
    public let fromStore: Bool
}

extension CachedMovieService {
    /// What `request` probably meant (`DidYouMean`): the server's suggestion, or the stored
    /// movies' when `offline` (the search was answered from the store) or the network cannot
    /// answer. `nil` when there is none, or on any failure: a suggestion never gets in the way
    /// of the search it follows.
    public func suggestion(for request: MovieSearchRequest, offline: Bool) async -> StoredSuggestion? {
        if !offline {
            do throws(Base.Failure) {
                return try await base.suggestion(for: request).map { StoredSuggestion(suggestion: $0, fromStore: false) }
            } catch {
                guard base.isUnavailable(error) else { return nil }
            }
        }
        do {
            let latestYear = Calendar(identifier: .gregorian).component(.year, from: Date()) + 1
            return try await store.suggestion(for: request, latestYear: latestYear, api: api).map { StoredSuggestion(suggestion: $0, fromStore: true) }
        } catch {
            return nil
        }
    }
}
