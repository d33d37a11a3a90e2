import Foundation
import HTTPTypes
import MovieContract
import Movies

/// `GET /api/watchlist` as the API sends it (``WatchlistWire/List``); a server that sends no
/// title and year, or no removals, is read as well.
public typealias APIWatchlist = WatchlistWire.List

extension WatchlistWire.List {
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

/// The answer to `POST /api/watchlist/changes` (``WatchlistWire/Results``).
public typealias APIWatchlistResults = WatchlistWire.Results

extension WatchlistWire.Batch {
    /// The body for `records`: a removal's note left out.
    init(_ records: [WatchlistChangeRecord]) {
        self.init(changes: records.map { record in
            WatchlistWire.Change(
                id: record.id, movieId: record.movieID, action: record.action.rawValue,
                note: record.action == .add ? record.note : nil,
                changedAt: WatchlistClock.string(record.changedAt), device: record.device
            )
        })
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
