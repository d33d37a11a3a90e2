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
    let shelves = MemoryShelves()
    let feed = MemoryFeedLog()
    let attempts = MemoryAttempts()
    /// Always empty: nothing here fails.
    public let failures = StorageFailures(logger: Logger(label: "marquee.memory-storage"))
    let probes: MemoryStorageProbes
    private let versionAsks = NIOLockedValueBox(0)

    public convenience init(catalog: Catalog) {
        self.init(catalog: catalog, probes: MemoryStorageProbes())
    }

    /// A memory storage that stands for a database in a test (``MemoryStorageProbes``).
    package init(catalog: Catalog, probes: MemoryStorageProbes) {
        self.catalog = catalog
        self.probes = probes
        searchIndex = MemorySearchIndex(catalog.movies)
    }

    /// How many times the catalogue version was asked.
    package var catalogueVersionAsks: Int { versionAsks.withLockedValue { $0 } }

    public var summary: String { "memory (\(catalog.movies.count) movies)" }

    public var fixedCatalog: Catalog? { probes.catalogueMayChange ? nil : catalog }

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

    public func catalogVersion() -> Int64 {
        versionAsks.withLockedValue { $0 += 1 }
        return 0
    }

    public func checkHealth() async {
        if probes.healthDelay > .zero { try? await Task.sleep(for: probes.healthDelay) }
    }

    public func onFeedNotification(_ wake: @escaping @Sendable () -> Void) -> Bool { false }

    public func close() async {}
}
