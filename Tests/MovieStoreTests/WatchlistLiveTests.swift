import Foundation
import GRDB
import MovieContract
import MovieStore
import Movies
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

    /// A server holding movie 3 and `WatchlistLive` running on a new store, past the stream's
    /// first `ready` without a cursor: the list fetched, and movie 3 told as added.
    func runningInStep() async throws -> (
        store: MovieStore, service: RecordingWatchlistService, feed: ScriptedLiveFeed,
        reports: AsyncStream<WatchlistLive<RecordingWatchlistService>.Report>.Iterator, task: Task<Void, Never>
    ) {
        let store = try makeStore()
        let service = RecordingWatchlistService()
        _ = try await service.apply([Self.change(3, at: 1_000)], key: "a")
        let feed = ScriptedLiveFeed()
        let live = WatchlistLive(store: store, api: api, sync: WatchlistSync(service: service, store: store, api: api), feed: feed)
        var (reports, task) = start(live)
        feed.send.yield(.update(.ready(cursor: "5")))
        #expect(await reports.next() == .refetched(afterReset: false))
        #expect(Self.change(in: await reports.next()) == [3: .added], "what the fetch brought is told as changes")
        return (store, service, feed, reports, task)
    }

    /// The movie and kind of a `.changed` report, or nil for any other report.
    static func change(in report: WatchlistLive<RecordingWatchlistService>.Report?) -> [Int: WatchlistChange.Kind]? {
        guard case let .changed(change)? = report else { return nil }
        return [change.movieID: change.kind]
    }

    static func change(_ movie: Int, at time: Int64) -> WatchlistChangeRecord {
        WatchlistChangeRecord(id: "other-\(movie)-\(time)", movieID: movie, action: .add, note: "from the laptop", changedAt: time, device: "laptop")
    }

    @Test("no cursor: the list is fetched first; an event is applied and reported once, its replay changes nothing; a reset fetches again; the cursor is kept")
    func appliesOnce() async throws {
        var (store, service, feed, reports, task) = try await runningInStep()
        defer { task.cancel() }

        #expect(try await store.watchlist(api: api).lines.map(\.movieID) == [3])
        #expect(try await store.liveCursor(api: api) == "5")

        _ = try await service.apply([Self.change(6, at: 2_000)], key: "b")
        let six = WatchlistItem(movieID: 6, note: "from the laptop", changedAt: 2_000)
        feed.send.yield(.update(.watchlist(six, removed: false, cursor: "6")))
        #expect(Self.change(in: await reports.next()) == [6: .added])
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

    @Test("an event the store cannot write says the feed is behind, and the whole list is fetched at the next update")
    func failedWriteIsNotInStep() async throws {
        var (store, service, feed, reports, task) = try await runningInStep()
        defer { task.cancel() }

        let other = try DatabaseQueue(path: store.url.path)
        try await other.write { db in
            try db.execute(sql: "CREATE TRIGGER refuse BEFORE UPDATE ON liveCursor BEGIN SELECT RAISE(ABORT, 'refused by the test'); END")
        }
        _ = try await service.apply([Self.change(6, at: 2_000)], key: "b")
        feed.send.yield(.update(.watchlist(WatchlistItem(movieID: 6, note: "from the laptop", changedAt: 2_000), removed: false, cursor: "6")))
        let refused = await reports.next()
        guard case let .status(.behind(reason))? = refused else {
            Issue.record("expected the feed to say it is behind, got \(String(describing: refused))")
            return
        }
        #expect(reason.contains("could not be written"))
        #expect(try await store.watchlist(api: api).lines.map(\.movieID) == [3], "nothing of the refused event was kept")

        try await other.write { db in try db.execute(sql: "DROP TRIGGER refuse") }
        feed.send.yield(.update(.catalog(version: 4, cursor: "7")))
        var next: [WatchlistLive<RecordingWatchlistService>.Report] = []
        for _ in 0..<3 { if let report = await reports.next() { next.append(report) } }
        #expect(next.first == .refetched(afterReset: false), "out of step, the next update fetches the list whole")
        #expect(next.contains(.catalogChanged(version: 4)))
        #expect(next.compactMap(Self.change(in:)) == [[6: .added]])
        #expect(Set(try await store.watchlist(api: api).lines.map(\.movieID)) == [3, 6])
        #expect(try await store.liveCursor(api: api) == "7")
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
        #expect(Self.change(in: await reports.next()) == [3: .added])
        #expect(try await store.watchlist(api: api).lines.map(\.movieID) == [3])
        #expect(try await store.liveCursor(api: api) == "2")
    }

    @Test("two windows on one store, each with its own feed: every change is told once in each, whichever applied it; a change acknowledged to a third process's command too; a note changed and a removal are told as such")
    func everyWindowSeesEveryChange() async throws {
        let store = try makeStore()
        let other = try MovieStore(url: store.url)
        let third = try MovieStore(url: store.url)
        let service = RecordingWatchlistService()
        try await store.replaceWatchlist([], entityTag: nil, api: api)
        try await store.applyLiveUpdate(.ready(cursor: "1"), api: api)
        let feeds = [ScriptedLiveFeed(), ScriptedLiveFeed()]
        var windows = [
            start(WatchlistLive(store: store, api: api, sync: WatchlistSync(service: service, store: store, api: api), feed: feeds[0])),
            start(WatchlistLive(store: other, api: api, sync: WatchlistSync(service: service, store: other, api: api), feed: feeds[1])),
        ]
        defer { windows.forEach { $0.task.cancel() } }
        // Each window reads where the log stands before it opens its feed: once both feeds are
        // open, every change from now on is one both must tell.
        while feeds.contains(where: { $0.cursors.isEmpty }) { await Task.yield() }
        let changes: [(WatchlistItem, Bool)] = [
            (WatchlistItem(movieID: 6, note: "Friday", changedAt: 2_000), false),
            (WatchlistItem(movieID: 7, note: "", changedAt: 2_001), false),
            (WatchlistItem(movieID: 6, note: "Saturday", changedAt: 2_002), false),
            (WatchlistItem(movieID: 7, note: "", changedAt: 2_003), true),
        ]
        for (index, (item, removed)) in changes.enumerated() {
            for feed in index.isMultiple(of: 2) ? feeds : feeds.reversed() {
                feed.send.yield(.update(.watchlist(item, removed: removed, cursor: String(10 + index))))
            }
        }
        func collect(_ count: Int, from index: Int) async -> [[Int: WatchlistChange.Kind]] {
            var seen: [[Int: WatchlistChange.Kind]] = []
            while seen.count < count, let report = await windows[index].reports.next() {
                if let change = Self.change(in: report) { seen.append(change) }
            }
            return seen
        }
        for index in windows.indices {
            #expect(await collect(4, from: index) == [[6: .added], [7: .added], [6: .noteChanged], [7: .removed]], "window \(index)")
        }
        let recorded = try await third.recordWatchlistChange(movieID: 8, action: .add, note: "from a command", api: api)
        try await third.acknowledgeWatchlistChanges([(recorded, .applied)], api: api)
        for index in windows.indices {
            #expect(await collect(1, from: index) == [[8: .added]], "window \(index): a third process's acknowledged change")
        }
        #expect(try await store.watchlistChanges(after: 0, api: api).count == 5, "each change logged once, whichever window applied it")
    }
}
