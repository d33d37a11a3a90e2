import Foundation
import MovieAPI
import MovieContract
import Movies
import Networking
import ReferenceAPI
import Testing

/// The watchlist's two new words on the wire, read by the client: a list's removals with their
/// times, and the time the server orders each change of a sync by.
@Suite("The watchlist on the wire")
struct APIWatchlistWireTests {
    private func service(_ rules: [StubRule]) -> APIWatchlistService {
        APIWatchlistService(client: APIClient(baseURL: ReferenceStubs.baseURL, transport: StubTransport(rules: rules, sleep: { _ in })))
    }

    @Test("a list's removals are read with their times; a server that sends none gives none")
    func removalsAreRead() async throws {
        let body = #"{"entries":[{"movieId":6,"note":"Friday","changedAt":"2026-11-27T10:00:00.000Z"}],"removed":[{"movieId":2,"changedAt":"2026-11-27T09:00:00.500Z"}]}"#
        guard case let .modified(snapshot, _) = try await service([.path(.get, "watchlist", .status(200, body: body))]).watchlist(ifNoneMatch: nil) else {
            Issue.record("no list")
            return
        }
        #expect(snapshot.items.map(\.movieID) == [6])
        #expect(snapshot.removals == [2: try #require(WatchlistClock.milliseconds("2026-11-27T09:00:00.500Z"))])
        guard case let .modified(older, _) = try await service([.path(.get, "watchlist", .status(200, body: #"{"entries":[]}"#))]).watchlist(ifNoneMatch: nil) else {
            Issue.record("no list")
            return
        }
        #expect(older.removals == nil)
    }

    @Test("a list's feed position is read from its Feed-Position header; a missing, negative or unreadable one is none")
    func feedPositionIsRead() async throws {
        func position(_ header: String?) async throws -> Int64? {
            let response = APIResponse(
                status: .init(code: 200), headerFields: header.map { [.init("Feed-Position")!: $0, .contentType: "application/json"] } ?? [.contentType: "application/json"],
                body: Data(#"{"entries":[]}"#.utf8)
            )
            guard case let .modified(snapshot, _) = try await service([.path(.get, "watchlist", .response(response))]).watchlist(ifNoneMatch: nil) else {
                Issue.record("no list")
                return nil
            }
            return snapshot.feedPosition
        }
        #expect(try await position("1234") == 1234)
        #expect(try await position(nil) == nil)
        #expect(try await position("-5") == nil)
        #expect(try await position("12ab") == nil)
    }

    @Test("a removal's time that is not RFC 3339 is a decoding failure, not a guess")
    func badRemovalTime() async throws {
        let body = #"{"entries":[],"removed":[{"movieId":2,"changedAt":"yesterday"}]}"#
        await #expect(throws: NetworkError.self) {
            try await service([.path(.get, "watchlist", .status(200, body: body))]).watchlist(ifNoneMatch: nil)
        }
    }

    @Test("each result's time is read; a repeat's, which the server does not name, is nil")
    func resultTimesAreRead() async throws {
        let changes = ["a", "b"].map { WatchlistChangeRecord(id: $0, movieID: 6, action: .add, note: "", changedAt: 1, device: "d") }
        let body = #"{"results":[{"id":"a","movieId":6,"outcome":"applied","changedAt":"2026-11-27T10:05:00.000Z"},{"id":"b","movieId":6,"outcome":"repeated"}]}"#
        let results = try await service([.path(.post, "watchlist/changes", .status(200, body: body))]).apply(changes, key: "k")
        let orderedAt = try #require(WatchlistClock.milliseconds("2026-11-27T10:05:00.000Z"))
        #expect(results == [
            WatchlistChangeResult(.applied, orderedAt: orderedAt),
            WatchlistChangeResult(.repeated),
        ])
    }
}
