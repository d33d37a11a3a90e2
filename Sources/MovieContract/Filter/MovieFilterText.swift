import Foundation

/// Reads and writes a filter's values as a person types them and the API's query string carries
/// them: `80-120` (both ends included), `80-` (80 and more), `95` (exactly), genres by IMDb's names
/// in any case, a rating such as `7.5`. Each refusal says what was wrong and what is expected.
public enum MovieFilterText {
    /// A value that is not one: its message names the value and what is expected.
    public struct Problem: Error, Sendable, Equatable {
        public let message: String
    }

    public static let yearBounds = 1...9999
    public static let runtimeBounds = 1...CatalogMovieDetails.longestRuntime
    public static let votesBounds = 0...1_000_000_000
    public static let ratingBounds = 0.0...100.0

    /// The genres named in `text` (several separated by commas), as IMDb spells them.
    public static func genres(_ text: String) throws(Problem) -> [String] {
        var found: [String] = []
        for name in text.split(separator: ",", omittingEmptySubsequences: false) {
            let wanted = name.trimmingCharacters(in: .whitespaces).lowercased()
            guard let genre = CatalogMovieDetails.knownGenres.first(where: { $0.lowercased() == wanted }) else {
                throw Problem(message: "There is no genre '\(excerpt(String(name)))': the genres are \(CatalogMovieDetails.knownGenres.joined(separator: ", ")).")
            }
            found.append(genre)
        }
        return found
    }

    /// A runtime in minutes: `80-120`, `80-` or `95`.
    public static func runtime(_ text: String) throws(Problem) -> ClosedRange<Int> {
        try span(text, of: "runtime", unit: " minutes", bounds: runtimeBounds)
    }

    /// A year or a span of years: `1990-1999`, `1990-` or `2016`.
    public static func years(_ text: String) throws(Problem) -> ClosedRange<Int> {
        try span(text, of: "year", unit: "", bounds: yearBounds)
    }

    public static func minimumVotes(_ text: String) throws(Problem) -> Int {
        guard let votes = wholeNumber(text[...]), votesBounds.contains(votes) else {
            throw Problem(message: "The least number of votes must be a whole number from \(votesBounds.lowerBound) to \(votesBounds.upperBound), not '\(excerpt(text))'.")
        }
        return votes
    }

    /// A rating on the catalogue's scale, 0 to 100 (IMDb's 7.5 is 75), with at most two decimals.
    public static func minimumRating(_ text: String) throws(Problem) -> Double {
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let whole = wholeNumber(parts[0]), parts.count == 1 || (1...2).contains(parts[1].count) && wholeNumber(parts[1]) != nil,
              let rating = Double(text), ratingBounds.contains(rating), whole <= 100 else {
            throw Problem(message: "The least rating must be a number from 0 to 100 (the catalogue's scale: IMDb's 7.5 is 75), not '\(excerpt(text))'.")
        }
        return rating
    }

    /// A search's year and filter in the words of a title: ` of 1990-1999, Drama and Sci-Fi, 80-120
    /// minutes, 1000+ votes, rated 7.5+`; empty when neither is asked for.
    public static func phrase(year: Int?, filter: MovieFilter) -> String {
        var parts: [String] = []
        if let year { parts.append(String(year)) }
        if let years = filter.years { parts.append(span(years)) }
        if !filter.genres.isEmpty { parts.append(filter.genres.joined(separator: " and ")) }
        if let runtime = filter.runtime { parts.append(span(runtime) + " minutes") }
        if let votes = filter.minimumVotes { parts.append("\(votes)+ votes") }
        if let rating = filter.minimumRating { parts.append("rated \(Self.rating(rating))+") }
        return parts.isEmpty ? "" : " of " + parts.joined(separator: ", ")
    }

    /// `80-120`, or `95` for a span of one.
    public static func span(_ range: ClosedRange<Int>) -> String {
        range.lowerBound == range.upperBound ? String(range.lowerBound) : "\(range.lowerBound)-\(range.upperBound)"
    }

    /// `7`, `7.5`, `7.25`: as short as it is exact to two decimals.
    public static func rating(_ rating: Double) -> String {
        let hundredths = Int((rating * 100).rounded())
        let whole = hundredths / 100, fraction = hundredths % 100
        if fraction == 0 { return String(whole) }
        return fraction % 10 == 0 ? "\(whole).\(fraction / 10)" : "\(whole).\(fraction < 10 ? "0" : "")\(fraction)"
    }

    private static func span(_ text: String, of name: String, unit: String, bounds: ClosedRange<Int>) throws(Problem) -> ClosedRange<Int> {
        let expected = "a \(name) from \(bounds.lowerBound) to \(bounds.upperBound)\(unit), or a span such as \(name == "year" ? "1990-1999" : "80-120") or \(name == "year" ? "1990-" : "80-")"
        let ends = text.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard let low = wholeNumber(ends[0]), bounds.contains(low) else {
            throw Problem(message: "The \(name) '\(excerpt(text))' is not one: give \(expected).")
        }
        guard ends.count == 2 else { return low...low }
        if ends[1].isEmpty { return low...bounds.upperBound }
        guard let high = wholeNumber(ends[1]), bounds.contains(high) else {
            throw Problem(message: "The \(name) '\(excerpt(text))' is not one: give \(expected).")
        }
        guard low <= high else {
            throw Problem(message: "The \(name) span '\(excerpt(text))' is upside down: write the smaller end first (\(high)-\(low)).")
        }
        return low...high
    }

    /// ASCII digits only, at most ten of them; `nil` for anything else (a sign, a space, nothing).
    private static func wholeNumber(_ text: Substring) -> Int? {
        guard (1...10).contains(text.utf8.count), text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else { return nil }
        return Int(text)
    }

    private static func excerpt(_ text: String) -> String {
        let printable = String(String.UnicodeScalarView(text.unicodeScalars.map { $0.properties.generalCategory == .control ? "?" : $0 }))
        return printable.count > 40 ? String(printable.prefix(40)) + "…" : printable
    }
}
