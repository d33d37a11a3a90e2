import MarqueeTestSupport
import Movies
import MovieStore
import NIOConcurrencyHelpers
import Synchronization
import Testing

/// A feed that has an update ready each time it is asked, for ever, and counts the asks.
final class EndlessLiveFeed: LiveFeed {
    private let asked = NIOLockedValueBox(0)

    var asks: Int { asked.withLockedValue { $0 } }

    func updates(after cursor: String?) -> AsyncStream<LiveFeedItem> {
        AsyncStream(unfolding: { [asked] in
            let number = asked.withLockedValue { $0 += 1; return $0 }
            return .update(.ready(cursor: "\(number)"))
        })
    }
}

/// `WatchlistLive` holds the feed back while its reports are not taken: a reader of the reports
/// that stops (a terminal or a pipe that is not read) stops the feed, rather than a queue growing.
@Suite("The watchlist's live feed waits for its reports", .timeLimit(.minutes(1)))
struct WatchlistLiveBackpressureTests {
    @Test("an endless feed, and a report that is never taken: the feed is asked for one update, and no more")
    func feedWaitsForReports() async throws {
        let store = try makeStore()
        let api = "http://live.test/api/"
        let service = RecordingWatchlistService()
        let feed = EndlessLiveFeed()
        let live = WatchlistLive(store: store, api: api, sync: WatchlistSync(service: service, store: store, api: api), feed: feed)
        let reported = Mutex(0)
        let task = Task {
            await live.run { _ in
                reported.withLock { $0 += 1 }
                // A reader that never takes the report: waits until the test ends it.
                try? await Task.sleep(for: .seconds(3_600))
            }
        }
        #expect(try await eventually { reported.withLock { $0 } == 1 })
        let asks = try await settled({ feed.asks }, passing: 10)
        #expect(asks <= 2, "the feed was asked \(asks) times while the first report waited")
        task.cancel()
        await task.value
    }
}
