import Foundation
import GRDB

/// A row of `watchlistState`: what the last pull of an API's watchlist learnt: its entity tag,
/// when it was made, and whether the server keeps no watchlist at all.
struct WatchlistPullState: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "watchlistState"

    var apiId: Int64
    var entityTag: String?
    /// Seconds since 1970.
    var pulledAt: Double?
    var serverHasNone: Bool
    /// The live feed's position the last list taken was read at: the feed's watchlist events up
    /// to it are in that list already.
    var feedPosition: Int64?

    enum Columns {
        static let apiId = Column(CodingKeys.apiId)
    }

    var pulledDate: Date? { pulledAt.map(Date.init(timeIntervalSince1970:)) }
}
