import Foundation
import MovieContract
import MovieStore
import Movies

/// The JSON form of answers: pretty-printed, sorted keys, `yyyy-MM-dd` release dates.
enum MovieJSON {
    /// One answer with where it came from:
    /// `{"source": "network" | "store" | "derived", "fetchedAt": "2026-11-22T01:02:03Z", "movies": […]}`,
    /// with `derivedFrom` (how many stored movies a derived list was made from), `networkError`
    /// and `revalidated` (the server answered 304: the stored list is current) when they apply;
    /// `movie` instead of `movies` for one movie; `searched` (how many stored movies) and `next`
    /// (the cursor of the next page) for a search.
    struct Answer: Encodable {
        var source: String
        var revalidated: Bool?
        var fetchedAt: String?
        var derivedFrom: Int?
        /// How many stored movies an offline search looked through.
        var searched: Int?
        var networkError: String?
        var movies: [Movie]?
        var movie: Movie?
        var next: String?
        /// What a search that found little probably meant.
        var suggestion: Suggestion?
        /// The signed-in person's rating of the movie, as this machine knows it.
        var yourRating: Int?

        init<Value>(_ snapshot: AppSnapshot<Value>, movies: [Movie]? = nil, movie: Movie? = nil) {
            switch snapshot.source {
            case .network: source = "network"
            case .store: source = "store"
            case let .derived(records): source = "derived"; derivedFrom = records
            case let .searched(records): source = "store"; searched = records
            }
            revalidated = snapshot.revalidated ? true : nil
            fetchedAt = snapshot.fetchedAt.map { $0.formatted(.iso8601) }
            networkError = snapshot.networkError.map { ErrorReporter.describe($0) }
            self.movies = movies
            self.movie = movie
        }
    }

    /// A search's suggestion: the query and year to search, how many movies they find, whether
    /// the server or the stored movies gave it, and the command.
    struct Suggestion: Encodable {
        var query: String
        var year: Int?
        var movies: Int
        var source: String
        var command: String
    }

    static func encode(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(CalendarDate.string(from: date))
        }
        do {
            return String(decoding: try encoder.encode(value), as: UTF8.self) + "\n"
        } catch {
            throw CLIError.cannotWriteOutput(reason: "\(error)")
        }
    }
}
