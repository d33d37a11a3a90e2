import Foundation
import Movies
import MovieStore
import Synchronization
import Testing

/// A live feed the test plays item by item; it records the cursor it was opened after.
final class ScriptedLiveFeed: LiveFeed {
    let items: AsyncStream<LiveFeedItem>
    let send: AsyncStream<LiveFeedItem>.Continuation
    private let opened = Mutex<[String?]>([])

    init() {
        (items, send) = AsyncStream<LiveFeedItem>.makeStream()
    }

    var cursors: [String?] { opened.withLock { $0 } }

    func updates(after cursor: String?) -> AsyncStream<LiveFeedItem> {
        opened.withLock { $0.append(cursor) }
        return items
    }
}

/// `WatchlistLive` over a real store and an in-memory server: what it applies, what it reports,
/// and where it resumes.
@Suite("The watchlist kept in step by the live feed", .timeLimit(.minutes(1)))
struct WatchlistLiveTests {
    let api = "http://live.test/api/"

    /// Runs `live` in a task; the reports arrive on the stream returned.
    func start(_ live: WatchlistLive<RecordingWatchlistService>) -> (reports: AsyncStream<WatchlistLive<RecordingWatchlistService>.Report>.Iterator, task: Task<Void, Never>) {
        let (reports, sink) = AsyncStream<WatchlistLive<RecordingWatchlistService>.Report>.makeStream()
        let task = Task {
            await live.run { sink.yield($0) }
            sink.finish()
        }
        return (reports.makeAsyncIterator(), task)
    }

    static func change(_ movie: Int, at time: Int64) -> WatchlistChangeRecord {
        WatchlistChangeRecord(id: "other-\(movie)-\(time)", movieID: movie, action: .add, note: "from the laptop", changedAt: time, device: "laptop")
    }

    @Test("no cursor: the list is fetched first; an event is applied and reported once, its replay changes nothing; a reset fetches again; the cursor is kept")
    func appliesOnce() async throws {
        let store = try makeStore()
        let service = RecordingWatchlistService()
        _ = try await service.apply([Self.change(3, at: 1_000)], key: "a")
        let feed = ScriptedLiveFeed()
        let live = WatchlistLive(store: store, api: api, sync: WatchlistSync(service: service, store: store, api: api), feed: feed)
        var (reports, task) = start(live)
        defer { task.cancel() }

        feed.send.yield(.update(.ready(cursor: "5")))
        #expect(await reports.next() == .refetched(afterReset: false))
        #expect(try await store.watchlist(api: api).lines.map(\.movieID) == [3])
        #expect(try await store.liveCursor(api: api) == "5")

        _ = try await service.apply([Self.change(6, at: 2_000)], key: "b")
        let six = WatchlistItem(movieID: 6, note: "from the laptop", changedAt: 2_000)
        feed.send.yield(.update(.watchlist(six, removed: false, cursor: "6")))
        #expect(await reports.next() == .changed(six, removed: false))
        feed.send.yield(.update(.watchlist(six, removed: false, cursor: "6")))
        feed.send.yield(.update(.catalog(version: 4, cursor: "7")))
        #expect(await reports.next() == .catalogChanged(version: 4), "the replayed event was passed over")
        #expect(Set(try await store.watchlist(api: api).lines.map(\.movieID)) == [3, 6])

        feed.send.yield(.update(.reset(cursor: "9")))
        #expect(await reports.next() == .refetched(afterReset: true))
        #expect(try await store.liveCursor(api: api) == "9")
        #expect(feed.cursors == [nil])

        feed.send.finish()
        await task.value
        let resumed = ScriptedLiveFeed()
        resumed.send.finish()
        await WatchlistLive(store: store, api: api, sync: WatchlistSync(service: service, store: store, api: api), feed: resumed).run { _ in }
        #expect(resumed.cursors == ["9"], "the next run resumes after the kept cursor")
    }

    @Test("a pull that fails says the feed is behind, and is tried again with the next update until it succeeds")
    func failedPullIsRetried() async throws {
        let store = try makeStore()
        let service = RecordingWatchlistService()
        _ = try await service.apply([Self.change(3, at: 1_000)], key: "a")
        service.fail(with: RecordingWatchlistService.Down())
        let feed = ScriptedLiveFeed()
        let live = WatchlistLive(store: store, api: api, sync: WatchlistSync(service: service, store: store, api: api), feed: feed)
        var (reports, task) = start(live)
        defer { task.cancel() }

        feed.send.yield(.update(.ready(cursor: "1")))
        let behind = await reports.next()
        guard case let .status(.behind(reason))? = behind else {
            Issue.record("expected the feed to say it is behind: \(String(describing: behind))")
            return
        }
        #expect(reason.hasPrefix("the list could not be fetched"))
        #expect(try await store.liveCursor(api: api) == nil, "nothing applied out of step")

        service.fail(with: nil)
        feed.send.yield(.update(.catalog(version: 2, cursor: "2")))
        #expect(await reports.next() == .refetched(afterReset: false))
        #expect(await reports.next() == .catalogChanged(version: 2))
        #expect(try await store.watchlist(api: api).lines.map(\.movieID) == [3])
        #expect(try await store.liveCursor(api: api) == "2")
    }
}
