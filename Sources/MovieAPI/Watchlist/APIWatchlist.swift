import Foundation
import HTTPTypes
import Movies

/// `GET /api/watchlist` as the API sends it: `{"entries": [{"movieId", "note", "changedAt",
/// "title", "year"}], "removed": [{"movieId", "changedAt"}]}` (a server that sends no title and
/// year, or no removals, is read as well).
public struct APIWatchlist: Decodable, Sendable, Hashable {
    public struct Entry: Decodable, Sendable, Hashable {
        public let movieId: Int
        public let note: String
        public let changedAt: String
        public let title: String?
        public let year: Int?
    }

    /// A movie that left the list, and when.
    public struct Removal: Decodable, Sendable, Hashable {
        public let movieId: Int
        public let changedAt: String
    }

    public let entries: [Entry]
    public let removed: [Removal]?

    /// The domain items; an entry whose time is not one the API writes is a decoding failure.
    func items() throws(APIWatchlistError) -> [WatchlistItem] {
        try entries.map { entry throws(APIWatchlistError) in
            guard let changedAt = WatchlistClock.milliseconds(entry.changedAt) else { throw .badTime(entry.changedAt) }
            return WatchlistItem(movieID: entry.movieId, note: entry.note, changedAt: changedAt, title: entry.title, year: entry.year)
        }
    }

    /// The list and its removals; a time that is not one the API writes is a decoding failure.
    func snapshot() throws(APIWatchlistError) -> WatchlistSnapshot {
        let removals = try removed.map { removed throws(APIWatchlistError) in
            try Dictionary(removed.map { removal throws(APIWatchlistError) in
                guard let changedAt = WatchlistClock.milliseconds(removal.changedAt) else { throw .badTime(removal.changedAt) }
                return (removal.movieId, changedAt)
            }, uniquingKeysWith: max)
        }
        return WatchlistSnapshot(items: try items(), removals: removals)
    }
}

/// The answer to `POST /api/watchlist/changes`: `{"results": [{"id", "movieId", "outcome",
/// "changedAt"}]}` (`changedAt` only for a change applied or superseded, and not from every server).
public struct APIWatchlistResults: Decodable, Sendable, Hashable {
    public struct Result: Decodable, Sendable, Hashable {
        public let id: String
        public let movieId: Int
        public let outcome: String
        public let changedAt: String?
    }

    public let results: [Result]
}

/// The body of `POST /api/watchlist/changes`.
struct APIWatchlistBatch: Encodable {
    struct Change: Encodable {
        let id: String
        let movieId: Int
        let action: String
        let note: String?
        let changedAt: String
        let device: String
    }

    let changes: [Change]

    init(_ records: [WatchlistChangeRecord]) {
        changes = records.map { record in
            Change(
                id: record.id, movieId: record.movieID, action: record.action.rawValue,
                note: record.action == .add ? record.note : nil,
                changedAt: WatchlistClock.string(record.changedAt), device: record.device
            )
        }
    }

    var json: Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(self)) ?? Data()
    }
}

/// Why a watchlist answer could not be used.
enum APIWatchlistError: Error {
    case badTime(String)
}

extension HTTPField.Name {
    static let idempotencyKey = HTTPField.Name("Idempotency-Key")!
}
