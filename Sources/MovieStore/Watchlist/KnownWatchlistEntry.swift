import GRDB
import Movies

/// A row of `watchlistEntry`: a movie on an API's watchlist as its server last gave it (or as an
/// acknowledged change made it since).
struct KnownWatchlistEntry: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "watchlistEntry"

    var apiId: Int64
    var movieId: Int
    var note: String
    var changedAt: Int64
    /// The movie's title and year as the server's list gave them.
    var title: String?
    var year: Int?

    enum Columns {
        static let apiId = Column(CodingKeys.apiId)
        static let movieId = Column(CodingKeys.movieId)
        static let changedAt = Column(CodingKeys.changedAt)
    }

    static func of(apiID: Int64) -> QueryInterfaceRequest<Self> {
        filter(Columns.apiId == apiID)
    }
}
