import Foundation
import MovieContract
import Networking

extension CatalogMovie: JSONReadable {
    /// Reads a movie as `init(from:)` does, declining a missing or repeated key and a value of
    /// another type, so that `JSONDecoder` reports them with their path.
    public init(reading reader: inout JSONReader) throws(JSONReader.Declined) {
        var id: Int?, name: String?, year: Int?, releaseDate: String?, grossing: Int?, rating: Double?, cast: [Actor]?
        var imdbID: String?, originalTitle: String?, runtime: Int?, genres: [String]?, votes: Int?
        try reader.beginObject()
        while let key = try reader.nextKey() {
            if key == "id" {
                try Self.once(&id) { () throws(JSONReader.Declined) in try reader.readInt() }
            } else if key == "name" {
                try Self.once(&name) { () throws(JSONReader.Declined) in try reader.readString() }
            } else if key == "year" {
                try Self.once(&year) { () throws(JSONReader.Declined) in try reader.readInt() }
            } else if key == "releaseDate" {
                try Self.once(&releaseDate) { () throws(JSONReader.Declined) in try reader.readString() }
            } else if key == "grossing" {
                try Self.once(&grossing) { () throws(JSONReader.Declined) in try reader.readInt() }
            } else if key == "rating" {
                try Self.once(&rating) { () throws(JSONReader.Declined) in try reader.readDouble() }
            } else if key == "cast" {
                try Self.once(&cast) { () throws(JSONReader.Declined) in try [Actor](reading: &reader) }
            } else if key == "imdbId" {
                try Self.once(&imdbID) { () throws(JSONReader.Declined) in try reader.readString() }
            } else if key == "originalTitle" {
                try Self.once(&originalTitle) { () throws(JSONReader.Declined) in try reader.readString() }
            } else if key == "runtimeMinutes" {
                try Self.once(&runtime) { () throws(JSONReader.Declined) in try reader.readInt() }
            } else if key == "genres" {
                try Self.once(&genres) { () throws(JSONReader.Declined) in
                    try reader.beginArray()
                    var names: [String] = []
                    while try reader.nextElement() { names.append(try reader.readString()) }
                    return names
                }
            } else if key == "votes" {
                try Self.once(&votes) { () throws(JSONReader.Declined) in try reader.readInt() }
            } else {
                try reader.skipValue()
            }
        }
        guard let id, let name, let year, let releaseDate, let grossing, let rating, let cast else { throw JSONReader.Declined() }
        self.init(name: name, id: id, year: year, releaseDate: releaseDate, grossing: grossing, rating: rating, cast: cast)
        details = CatalogMovieDetails(imdbID: imdbID, originalTitle: originalTitle, runtimeMinutes: runtime, genres: genres, votes: votes)
    }

    private static func once<Value>(_ slot: inout Value?, _ read: () throws(JSONReader.Declined) -> Value) throws(JSONReader.Declined) {
        guard slot == nil else { throw JSONReader.Declined() }
        slot = try read()
    }
}

extension CatalogMovie.Actor: JSONReadable {
    /// Reads a cast member as `init(from:)` does.
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
        self.init(name: name)
    }
}
