import Foundation
import Logging
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
            return (Int64(version.value) * 10, SearchEntries(movies.map(SearchEntry.init)))
        }
        #expect(await keeper.ready() == 10)
        #expect(keeper.hits(MovieSearch(words: []), version: 9) == nil, "a search that read an older version is not answered")
        #expect(keeper.hits(MovieSearch(words: []), version: 10)?.count == 21)
        #expect(keeper.hits(MovieSearch(words: []), version: 11) == nil)
        #expect(await keeper.ready() == 20, "the index of version 10 was dropped and a new one made")
    }
}
