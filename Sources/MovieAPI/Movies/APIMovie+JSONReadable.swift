import Foundation
import MovieContract
import Movies
import Networking

extension APIMovie: JSONReadable {
    /// Reads a movie as `init(from:)` does, declining a missing or repeated key, a value of
    /// another type and a date that is not a day, so that `JSONDecoder` reports them.
    public init(reading reader: inout JSONReader) throws(JSONReader.Declined) {
        var id: Int?, name: String?, year: Int?, releaseDate: Date?, grossing: Int?, rating: Double?, cast: [APIMovieActor]?
        try reader.beginObject()
        while let key = try reader.nextKey() {
            if key == "id" {
                guard id == nil else { throw JSONReader.Declined() }
                id = try reader.readInt()
            } else if key == "name" {
                guard name == nil else { throw JSONReader.Declined() }
                name = try reader.readString()
            } else if key == "year" {
                guard year == nil else { throw JSONReader.Declined() }
                year = try reader.readInt()
            } else if key == "releaseDate" {
                guard releaseDate == nil, let day = CalendarDate.date(utf8: try reader.readString().utf8) else { throw JSONReader.Declined() }
                releaseDate = day
            } else if key == "grossing" {
                guard grossing == nil else { throw JSONReader.Declined() }
                grossing = try reader.readInt()
            } else if key == "rating" {
                guard rating == nil else { throw JSONReader.Declined() }
                rating = try reader.readDouble()
            } else if key == "cast" {
                guard cast == nil else { throw JSONReader.Declined() }
                cast = try [APIMovieActor](reading: &reader)
            } else {
                try reader.skipValue()
            }
        }
        guard let id, let name, let year, let releaseDate, let grossing, let rating, let cast else { throw JSONReader.Declined() }
        self.id = id
        self.name = name
        self.year = year
        self.releaseDate = releaseDate
        self.grossing = grossing
        self.rating = rating
        self.cast = cast
    }
}

extension APIMovieActor: JSONReadable {
    /// Reads a cast member as its synthesized `init(from:)` does.
    public init(reading reader: inout JSONReader) throws(JSONReader.Declined) {
        var name: String?
        try reader.beginObject()
        while let key = try reader.nextKey() {
            if key == "name" {
                guard name == nil else { throw JSONReader.Declined() }
                name = try reader.readString()
            } else {
                try reader.skipValue()
            }
        }
        guard let name else { throw JSONReader.Declined() }
        self.name = name
    }
}
