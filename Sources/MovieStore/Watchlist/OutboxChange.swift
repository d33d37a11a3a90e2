import GRDB
import MovieContract
import Movies

/// A row of `watchlistOutbox`: a change made here and not yet acknowledged by its API's server.
/// Its `sequence` orders the outbox; its action is decoded strictly (an unknown one is an error,
/// never read as an add).
struct OutboxChange: Codable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "watchlistOutbox"

    var sequence: Int64?
    var apiId: Int64
    var changeId: String
    var movieId: Int
    var action: WatchlistChangeRecord.Action
    var note: String
    var changedAt: Int64
    var device: String

    enum Columns {
        static let sequence = Column(CodingKeys.sequence)
        static let apiId = Column(CodingKeys.apiId)
        static let changeId = Column(CodingKeys.changeId)
        static let movieId = Column(CodingKeys.movieId)
        static let changedAt = Column(CodingKeys.changedAt)
    }

    init(_ change: WatchlistChangeRecord, apiID: Int64) {
        apiId = apiID
        changeId = change.id
        movieId = change.movieID
        action = change.action
        note = change.note
        changedAt = change.changedAt
        device = change.device
    }

    var change: WatchlistChangeRecord {
        WatchlistChangeRecord(id: changeId, movieID: movieId, action: action, note: note, changedAt: changedAt, device: device)
    }

    mutating func didInsert(_ inserted: InsertionSuccess) {
        sequence = inserted.rowID
    }
}
