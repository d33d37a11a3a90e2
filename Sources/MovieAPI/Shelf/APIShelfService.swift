import Foundation
import HTTPTypes
import MovieContract
import Movies
import Networking

/// The movie API's shelf beyond the watchlist (`/api/ratings`, …), for the signed-in person.
public final class APIShelfService: ShelfService {
    private let client: APIClient

    public init(client: APIClient) {
        self.client = client
    }

    public func records<Kind: ShelfKind>(_ kind: Kind.Type) async throws(NetworkError) -> ShelfSnapshot {
        let path = "/api/\(Kind.name)"
        var records: [ShelfSnapshot.Record] = []
        var removals: [String: Int64] = [:]
        var position: Int64?
        var after: String?
        var pages = 0
        repeat {
            pages += 1
            guard pages <= Self.maximumPages else {
                throw .cannotDecode(path: path, reason: "the server sent more than \(Self.maximumPages) pages, more than any person keeps")
            }
            let query = [URLQueryItem(name: "limit", value: String(Self.pageSize))] + (after.map { [URLQueryItem(name: "after", value: $0)] } ?? [])
            let response = try await client.send(Endpoint(path: [Kind.name], queryItems: query))
            let list = try ResponseDecoding.decode(ShelfWire<Kind.Value>.List.self, from: response.body)
            for (entry, text) in zip(list.entries, Kind.texts(of: list.entries.map(\.value))) {
                records.append(ShelfSnapshot.Record(
                    key: entry.key, value: text, changedAt: try Self.time(entry.changedAt, path: path), title: entry.title, year: entry.year
                ))
            }
            for removal in list.removed {
                removals[removal.key] = max(removals[removal.key] ?? .min, try Self.time(removal.changedAt, path: path))
            }
            // The first page's position: every page holds at least the changes up to it.
            position = position ?? response.headerFields[.feedPosition].flatMap { Int64($0) }.flatMap { $0 >= 0 ? $0 : nil }
            guard list.next == nil || list.next.map({ next in after.map { $0.utf8.lexicographicallyPrecedes(next.utf8) } ?? true }) == true else {
                throw .cannotDecode(path: path, reason: "a page's next does not come after the page before it")
            }
            after = list.next
        } while after != nil
        return ShelfSnapshot(records: records, removals: removals, feedPosition: position)
    }

    public func apply<Kind: ShelfKind>(_ changes: [ShelfChangeRecord], of kind: Kind.Type, key: String) async throws(NetworkError) -> [WatchlistChangeResult] {
        let path = "/api/\(Kind.name)/changes"
        let batch = ShelfWire<Kind.Value>.Batch(changes: changes.map { change in
            ShelfWire<Kind.Value>.Change(
                id: change.id, key: change.key, value: change.value.flatMap(Kind.value(ofText:)),
                changedAt: WatchlistClock.string(change.changedAt), device: change.device
            )
        })
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let endpoint = Endpoint(
            method: .post, path: [Kind.name, "changes"],
            headerFields: [.contentType: "application/json", .accept: "application/json", .idempotencyKey: key],
            body: (try? encoder.encode(batch)) ?? Data(),
            // The key makes a repeat harmless: the server answers it without applying anything twice.
            isRetrySafe: true, followsRedirects: false
        )
        let request = Request<ShelfResults>(endpoint: endpoint) { body throws(NetworkError) in try ResponseDecoding.decode(ShelfResults.self, from: body) }
        let answer = try await client.send(request)
        guard answer.results.count == changes.count, zip(answer.results, changes).allSatisfy({ $0.id == $1.id }) else {
            throw .cannotDecode(path: path, reason: "the answer does not list the changes sent, in order")
        }
        return try answer.results.map { result throws(NetworkError) in
            guard let outcome = WatchlistChangeOutcome(rawValue: result.outcome) else {
                throw .cannotDecode(path: path, reason: "the answer has an unknown outcome '\(result.outcome.prefix(40))'")
            }
            let orderedAt = try result.changedAt.map { text throws(NetworkError) in try Self.time(text, path: path) }
            return WatchlistChangeResult(outcome, orderedAt: orderedAt, firstOutcome: result.firstOutcome.flatMap(WatchlistChangeOutcome.init(rawValue:)))
        }
    }

    /// Records asked per page: the server's largest.
    static let pageSize = APILimits.shelfPageSizes.upperBound
    /// Pages read before a server that never ends its records is given up on: 1,000,000 records
    /// (what one person may keep of a kind) is 200 pages.
    static let maximumPages = 1_000

    private static func time(_ text: String, path: String) throws(NetworkError) -> Int64 {
        guard let time = WatchlistClock.milliseconds(text) else { throw .cannotDecode(path: path, reason: "a changedAt is not an RFC 3339 time") }
        return time
    }
}
