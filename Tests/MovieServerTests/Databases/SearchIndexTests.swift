import Foundation
import Logging
import MarqueeTestSupport
import MovieContract
import Movies
@testable import MovieServer
import Synchronization
import Testing

/// A count that concurrent code adds to.
private final class Counter: Sendable {
    private let count = Mutex(0)
    func increment() { count.withLock { $0 += 1 } }
    var value: Int { count.withLock { $0 } }
}

extension ServerDatabaseTests.SearchContractTests {
    @Test("a database's in-process index gives the rules' ids, a page at a time, for every query of the contract", arguments: Backend.databases)
    func indexedPages(backend: Backend) async throws {
        try await backend.withStorage(holding: Self.catalog, searchIndexing: .inProcess) { storage in
            let indexed = try #require(storage as? any SearchIndexed)
            #expect(await indexed.searchIndexReady() != nil)
            try await withServerClient(storage: storage) { client in
                for query in Self.queries + ["query=the&sort=title&order=desc", "query=the&year=2016&sort=released&order=asc", "sort=title&order=desc"] {
                    let walked = try await Self.walk(client, query, limit: 37)
                    #expect(walked == (try Self.expected(query)), "\(backend) \(query)")
                }
            }
            let counts = indexed.searchIndexCounts
            #expect(counts.builds == 1)
            #expect(counts.answers > 100, "the pages came from the index, not the database's search")
        }
    }

    @Test("after an import, the next search sees the new catalogue at once (the database answers), then a new index does", arguments: Backend.databases)
    func importSeenAtOnce(backend: Backend) async throws {
        try await backend.withStorage(holding: Self.catalog, searchIndexing: .inProcess) { storage in
            let indexed = try #require(storage as? any SearchIndexed)
            let importer = try #require(storage as? any CatalogImporting)
            let before = try #require(await indexed.searchIndexReady())
            let quokka = MovieSearch(words: ["quokka"])
            #expect(try await storage.search(quokka).isEmpty)
            #expect(indexed.searchIndexCounts.answers == 1)

            var renamed = try #require(Self.catalog.movie(id: 900_002))
            renamed.name = "Zootopia and the Quokka"
            _ = try await importer.importMovies([renamed], batchSize: 10) { _ in }
            let found = try await storage.search(quokka)
            #expect(found.map(\.movie.id) == [900_002], "the renamed movie is found by the search right after the import")
            #expect(found.first?.relevance == 1)
            #expect(indexed.searchIndexCounts.answers == 1, "the old index did not answer")

            let after = try #require(await indexed.searchIndexReady())
            #expect(after > before)
            #expect(try await storage.search(quokka).map(\.movie.id) == [900_002])
            #expect(try await storage.search(MovieSearch(words: ["zootopia"])).map(\.movie.id) == [900_002])
            let counts = indexed.searchIndexCounts
            #expect(counts.builds == 2)
            #expect(counts.answers == 3)
        }
    }

    @Test("60 concurrent searches before the index exists: each answered right, and one index made", arguments: Backend.databases)
    func concurrentFirstSearches(backend: Backend) async throws {
        try await backend.withStorage(holding: Self.catalog, searchIndexing: .inProcess) { storage in
            let indexed = try #require(storage as? any SearchIndexed)
            let queries = ["pokemon", "the", "ava costa", "zoot", "golden", "re"]
            let answers = try await withThrowingTaskGroup(of: (String, [Int]).self) { group in
                for number in 0..<60 {
                    let query = queries[number % queries.count]
                    group.addTask { (query, try await storage.search(MovieSearch(words: SearchText.words(query), limit: 500)).map(\.movie.id)) }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            for (query, ids) in answers {
                #expect(ids == Array(try Self.expected("query=\(query.replacingOccurrences(of: " ", with: "%20"))").prefix(501)), "\(query)")
            }
            _ = await indexed.searchIndexReady()
            #expect(indexed.searchIndexCounts.builds == 1)
        }
    }
}

@Suite("The in-process search index's builds")
struct SearchIndexKeeperTests {
    struct LoadFailed: Error {}

    @Test("a failed build is not tried again by the searches within its delay; after it, the next search tries; a closed keeper builds nothing")
    func failedBuildWaits() async throws {
        let quiet = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })
        let patientLoads = Counter()
        let patient = SearchIndexKeeper(logger: quiet, retryDelay: .seconds(3600)) {
            patientLoads.increment()
            throw LoadFailed()
        }
        #expect(await patient.ready() == nil)
        for _ in 0..<20 { #expect(patient.hits(MovieSearch(words: ["the"]), version: 1) == nil) }
        #expect(await patient.ready() == nil)
        #expect(patientLoads.value == 1, "the searches within the delay began no build")
        #expect(patient.statistics.failures == 1)

        let eagerLoads = Counter()
        let eager = SearchIndexKeeper(logger: quiet, retryDelay: .zero) {
            eagerLoads.increment()
            throw LoadFailed()
        }
        #expect(await eager.ready() == nil)
        #expect(eager.hits(MovieSearch(words: ["the"]), version: 1) == nil)
        #expect(await eager.ready() == nil)
        #expect(eagerLoads.value >= 2, "past the delay, a search begins another build")
        await eager.close()
        let afterClose = eagerLoads.value
        _ = eager.hits(MovieSearch(words: ["the"]), version: 1)
        #expect(await eager.ready() == nil)
        #expect(eagerLoads.value == afterClose, "a closed keeper builds nothing")
    }

    @Test("an index of an older version is dropped by a search of a newer one, and kept by one that read the version before it")
    func olderVersions() async throws {
        let version = Counter()
        let movies = SyntheticCatalog.movies(count: 50, seed: 3, years: 2016...2016)
        let keeper = SearchIndexKeeper(logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })) {
            version.increment()
            return (Int64(version.value) * 10, movies.map(SearchEntry.init))
        }
        #expect(await keeper.ready() == 10)
        #expect(keeper.hits(MovieSearch(words: []), version: 9) == nil, "a search that read an older version is not answered")
        #expect(keeper.hits(MovieSearch(words: []), version: 10)?.count == 21)
        #expect(keeper.hits(MovieSearch(words: []), version: 11) == nil)
        #expect(await keeper.ready() == 20, "the index of version 10 was dropped and a new one made")
    }
}
