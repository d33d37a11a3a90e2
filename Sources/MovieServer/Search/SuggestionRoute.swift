import Foundation
import Hummingbird
import HummingbirdCore
import MovieContract

/// `GET /api/movies/suggestions?query=…[&year=…]`: what a search that found nothing probably
/// meant (`DidYouMean`), as `{"suggestion": {"query", "year", "movies"} | null, "indexReady": …}`.
/// A route of its own, so that a search that finds is never slowed by it; the same token, limits
/// and refusals as a search (a query that is empty, too long or of too many words, an unknown or
/// repeated parameter, a year out of range: each a 400).
struct SuggestionRoute: Sendable {
    static let path = "suggestions"
    static let names = ["query", "year"]

    let storage: any SearchStorage
    /// The latest year a number of a query may be read as: next year, by default.
    let latestYear: @Sendable () -> Int

    init(storage: any SearchStorage, latestYear: @escaping @Sendable () -> Int = SuggestionRoute.nextYear) {
        self.storage = storage
        self.latestYear = latestYear
    }

    func answer(_ request: Request) async throws -> Response {
        let (words, year) = try Self.parse(request.uri)
        let answer: SuggestionWire.Answer
        if words.isEmpty {
            answer = SuggestionWire.Answer(suggestion: nil)
        } else {
            answer = try await answering { () async throws(StorageError) in try await storage.suggestion(for: words, year: year, latestYear: latestYear()) }
        }
        return Response(
            status: .ok,
            headers: [.contentType: "application/json", .cacheControl: "no-store"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: answer.json))
        )
    }

    /// The folded words and the year the query string asks about.
    static func parse(_ uri: URI) throws(ErrorAnswer) -> (words: [String], year: Int?) {
        var values: [String: String] = [:]
        for (name, value) in QueryParameters.read(uri.query.map { $0[...] } ?? "") {
            guard names.contains(name) else {
                throw .badRequest("Unknown parameter '\(ParameterParsing.excerpt(name))': the parameters are \(names.joined(separator: ", ")).")
            }
            guard values.updateValue(value, forKey: name) == nil else {
                throw .badRequest("The parameter '\(name)' is given more than once.")
            }
        }
        guard let query = values["query"], !query.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw .badRequest("The query is missing or empty: give the words of the search that found nothing.")
        }
        guard query.unicodeScalars.count <= APILimits.queryLength else {
            throw .badRequest("The query is longer than \(APILimits.queryLength) characters (Unicode code points).")
        }
        let words = SearchText.words(query)
        guard words.count <= APILimits.queryWords else {
            throw .badRequest("The query has more than \(APILimits.queryWords) words.")
        }
        let year = try values["year"].map { text throws(ErrorAnswer) in try ParameterParsing.year(text) }
        return (words, year)
    }

    /// Next year in UTC: a film announced for it may already be in a catalogue.
    @Sendable static func nextYear() -> Int {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar.component(.year, from: Date()) + 1
    }
}
