import Foundation
import MovieContract
import Movies
import MovieStore
import Testing

/// The store's shelf, for every kind: a change recorded is shown at once and kept until
/// acknowledged, stamped after what the store knows of its key, and the server's records taken
/// in key by key, the later state winning.
@Suite("The shelf in the store")
struct ShelfStoreTests {
    let api = Fixtures.api
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    @Test("a rating recorded is shown pending at once, the last change of a key winning; a clear hides it; nothing leaves the outbox until acknowledged")
    func recordedIsShown() async throws {
        let store = try makeStore()
        _ = try await store.recordShelfChange(Ratings.self, key: "6", value: .init(score: 7), api: api, now: now)
        _ = try await store.recordShelfChange(Ratings.self, key: "6", value: .init(score: 9), api: api, now: now)
        _ = try await store.recordShelfChange(Ratings.self, key: "7", value: .init(score: 3), api: api, now: now)
        _ = try await store.recordShelfChange(Ratings.self, key: "7", value: nil, api: api, now: now)
        let view = try await store.shelf(Ratings.self, api: api)
        #expect(view.lines.map(\.key) == ["6"])
        #expect(view.line("6")?.value.score == 9 && view.line("6")?.isPending == true)
        #expect(view.pendingCount == 4 && view.pendingRemovals == ["7"])
        #expect(try await store.pendingShelfChanges(kind: Ratings.name, api: api).count == 4)
        #expect(try await store.pendingShelfChanges(kind: "diary", api: api).isEmpty, "each kind has its own outbox")
        #expect(try await store.shelf(Ratings.self, api: "http://other.test/api/").lines.isEmpty, "each API its own shelf")
    }

    @Test("a change is stamped after the key's known record and after the change still waiting, whatever the clock says; other keys do not count")
    func stampedAfterWhatIsKnown() async throws {
        let store = try makeStore()
        let ahead = WatchlistClock.now(now) + 3_600_000
        try await store.replaceShelf(
            ShelfSnapshot(records: [.init(key: "6", value: #"{"score":5}"#, changedAt: ahead)], removals: ["8": ahead + 10]),
            kind: Ratings.name, api: api, askedAt: now, now: now
        )
        let first = try await store.recordShelfChange(Ratings.self, key: "6", value: .init(score: 7), api: api, now: now)
        #expect(first.changedAt == ahead + 1, "after the known record")
        let second = try await store.recordShelfChange(Ratings.self, key: "6", value: .init(score: 8), api: api, now: now)
        #expect(second.changedAt == ahead + 3, "two milliseconds after the change still waiting, which the server may order a millisecond late")
        let removed = try await store.recordShelfChange(Ratings.self, key: "8", value: .init(score: 2), api: api, now: now)
        #expect(removed.changedAt == ahead + 11, "after the known removal")
        let other = try await store.recordShelfChange(Ratings.self, key: "9", value: .init(score: 2), api: api, now: now)
        #expect(other.changedAt == WatchlistClock.now(now), "another key keeps the clock")
    }

    @Test("the server's records are taken key by key, the later state winning; a key it no longer names goes unless learnt after the request was sent")
    func replaceMerges() async throws {
        let store = try makeStore()
        let asked = now
        try await store.replaceShelf(
            ShelfSnapshot(records: [.init(key: "1", value: #"{"score":5}"#, changedAt: 100, title: "One", year: 2001), .init(key: "2", value: #"{"score":6}"#, changedAt: 100)], removals: [:]),
            kind: Ratings.name, api: api, askedAt: asked, now: asked
        )
        let change = try await store.recordShelfChange(Ratings.self, key: "3", value: .init(score: 9), api: api, now: now)
        try await store.acknowledgeShelfChanges([(change, applied: true)], api: api, now: asked.addingTimeInterval(5))
        try await store.replaceShelf(
            ShelfSnapshot(records: [.init(key: "1", value: #"{"score":4}"#, changedAt: 50)], removals: [:]),
            kind: Ratings.name, api: api, askedAt: asked.addingTimeInterval(1), now: asked.addingTimeInterval(2)
        )
        let view = try await store.shelf(Ratings.self, api: api)
        #expect(view.line("1")?.value.score == 5, "an older state from the server does not win")
        #expect(view.line("1")?.title == "One", "the title stays")
        #expect(view.line("2") == nil, "the server no longer names it")
        #expect(view.line("3")?.value.score == 9 && view.line("3")?.isPending == false, "acknowledged after the request was sent: kept")
        #expect(view.pendingCount == 0)
    }

    @Test("an acknowledgement that lost is taken out of the outbox and not kept; one that won is kept at the time the server ordered it by")
    func acknowledgements() async throws {
        let store = try makeStore()
        let lost = try await store.recordShelfChange(Ratings.self, key: "1", value: .init(score: 2), api: api, now: now)
        let won = try await store.recordShelfChange(Ratings.self, key: "2", value: .init(score: 3), api: api, now: now)
        try await store.acknowledgeShelfChanges([(lost, applied: false), (won.ordered(at: won.changedAt + 7), applied: true)], api: api, now: now)
        let view = try await store.shelf(Ratings.self, api: api)
        #expect(view.lines.map(\.key) == ["2"])
        #expect(view.line("2")?.changedAt == won.changedAt + 7)
        #expect(view.pendingCount == 0)
    }
}

extension ShelfStoreTests {
    @Test("the watchlist's view carries the person's ratings, pending ones included, for a movie's page")
    func watchlistViewCarriesRatings() async throws {
        let store = try makeStore()
        _ = try await store.recordShelfChange(Ratings.self, key: "6", value: .init(score: 7), api: api, now: now)
        _ = try await store.recordShelfChange(Ratings.self, key: "8", value: .init(score: 2), api: api, now: now)
        _ = try await store.recordShelfChange(Ratings.self, key: "8", value: nil, api: api, now: now)
        #expect(try await store.watchlist(api: api).ratings == [6: 7])
    }
}

extension ShelfStoreTests {
    @Test("the watchlist's view carries the whole shelf for browse: ratings newest first, the diary by day, each list by name with its movies in the owner's order, titles from the server or the stored movie, pending changes marked")
    func overview() async throws {
        let store = try makeStore()
        try await store.saveMovies([Fixtures.movie(4, name: "Stored Four")], api: api, fetchedAt: now)
        try await store.replaceShelf(
            ShelfSnapshot(records: [.init(key: "3", value: #"{"score":5}"#, changedAt: 100, title: "Three", year: 2003)], removals: [:]),
            kind: Ratings.name, api: api, askedAt: now, now: now
        )
        _ = try await store.recordShelfChange(Ratings.self, key: "4", value: .init(score: 8), api: api, now: now)
        _ = try await store.recordShelfChange(Diary.self, key: "a", value: .init(movieId: 4, watchedOn: "2026-03-01", rewatch: false, note: ""), api: api, now: now)
        _ = try await store.recordShelfChange(Diary.self, key: "b", value: .init(movieId: 5, watchedOn: "2026-05-01", rewatch: true, note: "again"), api: api, now: now)
        _ = try await store.recordShelfChange(Lists.self, key: "z", value: .init(name: "zebra", description: ""), api: api, now: now)
        _ = try await store.recordShelfChange(Lists.self, key: "y", value: .init(name: "Apes", description: "d"), api: api, now: now)
        _ = try await store.recordShelfChange(ListItems.self, key: "y/5", value: .init(position: "b", note: ""), api: api, now: now)
        _ = try await store.recordShelfChange(ListItems.self, key: "y/4", value: .init(position: "a", note: "top"), api: api, now: now)
        #expect(try await store.watchlist(api: api).shelf == ShelfOverview(ratings: [
            .init(movieID: 4, score: 8, title: nil, isPending: true), .init(movieID: 3, score: 5, title: nil, isPending: false),
        ]), "the watchlist's commands read the ratings alone, not the diary or the lists")
        let shelf = try await store.watchlistAndShelf(api: api).shelf
        #expect(shelf.ratings.map(\.movieID) == [4, 3], "newest first")
        #expect(shelf.ratings.map(\.title) == ["Stored Four (2016)", "Three (2003)"])
        #expect(shelf.ratings.map(\.isPending) == [true, false])
        #expect(shelf.diary.map(\.entry) == ["b", "a"], "by the day watched, newest first")
        #expect(shelf.diary.first?.title == nil, "a movie neither the server nor the store knows has no title")
        #expect(shelf.lists.map(\.name) == ["Apes", "zebra"], "by name, whatever the case")
        #expect(shelf.lists.first?.items.map(\.movieID) == [4, 5], "in the owner's order")
        #expect(shelf.lists.first?.items.first?.note == "top")
        #expect(shelf.lists.last?.items.isEmpty == true)
    }
}
