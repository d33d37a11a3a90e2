import Foundation
import HTTPTypes
import MovieContract
import Movies
import Networking

/// The movie API's watchlist (`/api/watchlist`), for the token's client.
public final class APIWatchlistService: WatchlistService {
    private let client: APIClient

    public init(client: APIClient) {
        self.client = client
    }

    public func watchlist(ifNoneMatch entityTag: String?) async throws(NetworkError) -> Revalidation<WatchlistSnapshot> {
        let request = APIRoute.watchlistRequest()
        switch try await client.send(request, ifNoneMatch: entityTag) {
        case let .modified(response):
            let watchlist = try request.decode(response.body)
            do throws(APIWatchlistError) {
                var snapshot = try watchlist.snapshot()
                snapshot.feedPosition = response.headerFields[.feedPosition].flatMap { Int64($0) }.flatMap { $0 >= 0 ? $0 : nil }
                return .modified(snapshot, APIMovieService.freshness(of: response))
            } catch {
                throw .cannotDecode(path: "/api/watchlist", reason: "a watchlist entry's changedAt is not an RFC 3339 time")
            }
        case let .notModified(response):
            return .notModified(APIMovieService.freshness(of: response))
        }
    }

    public func apply(_ changes: [WatchlistChangeRecord], key: String) async throws(NetworkError) -> [WatchlistChangeResult] {
        let answer = try await client.send(APIRoute.watchlistChangesRequest(changes, key: key))
        guard answer.results.count == changes.count, zip(answer.results, changes).allSatisfy({ $0.id == $1.id }) else {
            throw .cannotDecode(path: "/api/watchlist/changes", reason: "the answer does not list the changes sent, in order")
        }
        return try answer.results.map { result throws(NetworkError) in
            guard let outcome = WatchlistChangeOutcome(rawValue: result.outcome) else {
                throw .cannotDecode(path: "/api/watchlist/changes", reason: "the answer has an unknown outcome '\(result.outcome.prefix(40))'")
            }
            let orderedAt = try result.changedAt.map { text throws(NetworkError) in
                guard let time = WatchlistClock.milliseconds(text) else {
                    throw .cannotDecode(path: "/api/watchlist/changes", reason: "a result's changedAt is not an RFC 3339 time")
                }
                return time
            }
            return WatchlistChangeResult(outcome, orderedAt: orderedAt, firstOutcome: result.firstOutcome.flatMap(WatchlistChangeOutcome.init(rawValue:)))
        }
    }

    public func meansNoWatchlist(_ failure: NetworkError) -> Bool {
        if case let .status(code, _) = failure { return [404, 405, 501].contains(code) }
        return false
    }
}

extension HTTPField.Name {
    /// The live feed's position a watchlist was read at (`GET /api/watchlist`).
    static let feedPosition = HTTPField.Name("Feed-Position")!
}
