import Foundation
import Logging
import MovieContract
import NIOConcurrencyHelpers

/// Storage that lives and dies with the process: a ``Catalog`` loaded at start, with its orders
/// and word indexes (`MemorySearchIndex`), and accounts, sign-ins and tokens in dictionaries.
/// The app's embedded server, `serve --catalog`, and the tests.
public final class MemoryStorage: ServerStorage, Sendable {
    public let catalog: Catalog
    /// Made at start, so that no request waits for it.
    private let searchIndex: MemorySearchIndex
    let identity = NIOLockedValueBox(MemoryIdentity())
    let watchlists = MemoryWatchlists()
    let feed = MemoryFeedLog()
    let attempts = MemoryAttempts()
    /// Always empty: nothing here fails.
    public let failures = StorageFailures(logger: Logger(label: "marquee.memory-storage"))

    public init(catalog: Catalog) {
        self.catalog = catalog
        searchIndex = MemorySearchIndex(catalog.movies)
    }

    public var summary: String { "memory (\(catalog.movies.count) movies)" }

    public var fixedCatalog: Catalog? { catalog }

    public func movie(id: Int) -> CatalogMovie? { catalog.movie(id: id) }

    public func topMovies(_ order: TopListOrder, year: Int, limit: Int) -> [CatalogMovie] {
        let movies = order == .grossing ? catalog.topGrossing(year: year) : catalog.topRated(year: year)
        return Array(movies.prefix(limit))
    }

    public func search(_ search: MovieSearch) -> [SearchHit] {
        searchIndex.search(search).compactMap { hit in catalog.movie(id: hit.id).map { SearchHit(movie: $0, relevance: hit.relevance) } }
    }

    public func suggestion(for words: [String], year: Int?, latestYear: Int) -> SuggestionWire.Answer {
        SuggestionWire.Answer(suggestion: searchIndex.suggestion(for: words, year: year, latestYear: latestYear))
    }

    public func catalogVersion() -> Int64 { 0 }

    public func checkHealth() {}

    public func onFeedNotification(_ wake: @escaping @Sendable () -> Void) -> Bool { false }

    public func close() async {}
}
