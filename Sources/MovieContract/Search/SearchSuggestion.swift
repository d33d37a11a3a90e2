/// `GET /api/movies/suggestions`: what a search that found nothing (or little) probably meant.
/// The server writes it and the client reads it with these types.
public enum SuggestionWire {
    /// The answer: a suggestion, or none; `indexReady` is false while a database backend's search
    /// index is still being made, when no suggestion is looked for (ask again shortly).
    public struct Answer: Codable, Sendable, Hashable {
        public var suggestion: SearchSuggestion?
        public var indexReady: Bool

        public init(suggestion: SearchSuggestion?, indexReady: Bool = true) {
            self.suggestion = suggestion
            self.indexReady = indexReady
        }

        /// The answer's bytes: `{"suggestion":{…}|null,"indexReady":…}`.
        public var json: String {
            var output = "{\"suggestion\":"
            if let suggestion {
                output += "{\"query\":"
                ContractJSON.writeString(suggestion.query, to: &output)
                output += ",\"year\":" + (suggestion.year.map(String.init) ?? "null") + ",\"movies\":\(suggestion.movies)}"
            } else {
                output += "null"
            }
            return output + ",\"indexReady\":\(indexReady)}"
        }
    }
}

/// A query to search instead of the one typed: its words (folded, each a word of the catalogue,
/// the last the start of one), the year to search in (a number of the query that looked like
/// one, or the year asked), and how many movies it finds.
public struct SearchSuggestion: Codable, Sendable, Hashable {
    public var query: String
    public var year: Int?
    public var movies: Int

    public init(query: String, year: Int?, movies: Int) {
        self.query = query
        self.year = year
        self.movies = movies
    }
}
