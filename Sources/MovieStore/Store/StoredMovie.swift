import Foundation
import GRDB
import MovieContract
import Movies

/// A row of `movie`: one movie as one API gave it, with when it was fetched and what the server
/// said of its freshness. Read whole (`movie.*`) and checked as it is read; written by
/// `MovieWriting`'s prepared upsert, which a batch of thousands of movies needs.
struct StoredMovie: FetchableRecord, TableRecord {
    static let databaseTableName = "movie"

    enum Columns {
        static let apiId = Column("apiId")
        static let id = Column("id")
        static let year = Column("year")
        static let grossing = Column("grossing")
        static let rating = Column("rating")
    }

    var id: Int
    var name: String
    var year: Int
    var releaseDate: Date
    var grossing: Int
    var rating: Double
    /// Seconds since 1970.
    var fetchedAt: Double
    var entityTag: String?
    var maxAge: Double?
    var details: MovieDetails?

    init(row: Row) throws {
        id = row["id"]
        name = row["name"]
        year = row["year"]
        let dateText: String = row["releaseDate"]
        guard let releaseDate = CalendarDate.date(from: dateText) else {
            throw DatabaseError(resultCode: .SQLITE_CORRUPT, message: "movie \(id) has release date '\(dateText)'")
        }
        self.releaseDate = releaseDate
        grossing = row["grossing"]
        rating = row["rating"]
        fetchedAt = row["fetchedAt"]
        entityTag = row["entityTag"]
        maxAge = row["maxAge"]
        let genres: String? = row["genres"]
        let details = MovieDetails(
            imdbID: row["imdbId"], originalTitle: row["originalTitle"], runtimeMinutes: row["runtimeMinutes"],
            genres: genres.map { $0.split(separator: ",").map(String.init) }, votes: row["votes"]
        )
        self.details = details.isEmpty ? nil : details
    }

    func movie(cast: [MovieActor]) -> Movie {
        Movie(id: id, name: name, year: year, releaseDate: releaseDate, grossing: grossing, rating: rating, cast: cast, details: details)
    }
}
