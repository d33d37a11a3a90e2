import Foundation
import MovieContract
import MovieStore
import Movies
import TextFormatting

/// "Did you mean" after a search that found little: asked of the service only then (a search
/// that finds is never slowed), and told in one line on standard error, or as `suggestion` in
/// `--json`: `no movies match 'zootopa'; did you mean 'zootopia'? (marquee search zootopia)`.
struct SuggestionNote: Sendable {
    /// A first page with fewer movies than this asks for a suggestion.
    static let few = 3

    let found: StoredSuggestion
    let typed: String
    let request: MovieSearchRequest
    let moviesFound: Int
    let offlineOption: Bool

    /// The suggestion for `request` after `answer`, when it found fewer than ``few`` movies on its first page.
    static func ask(
        for request: MovieSearchRequest, typed: String, after answer: AppSnapshot<MovieSearchPage>, service: AppMovieService, policy: CachePolicy
    ) async -> SuggestionNote? {
        guard request.text != nil, request.cursor == nil, answer.value.movies.count < few else { return nil }
        let searchedStore = if case .searched = answer.source { true } else { false }
        guard let found = await service.suggestion(for: request, offline: policy == .cacheOnly || searchedStore) else { return nil }
        return SuggestionNote(found: found, typed: typed, request: request, moviesFound: answer.value.movies.count, offlineOption: policy == .cacheOnly)
    }

    /// The command that searches what was meant.
    var command: String {
        let words = found.suggestion.query.split(separator: " ").map { ShellQuoting.quoted(TerminalText.safe(String($0))) }
        return (["marquee", "search"] + words).joined(separator: " ")
            + (found.suggestion.year.map { " --year \($0)" } ?? "") + (offlineOption ? " --offline" : "")
    }

    /// The line on standard error, without `marquee: `.
    var line: String {
        let suggestion = found.suggestion
        let typedText = TerminalText.safe(typed)
        let outcome = moviesFound == 0 ? "no movies match '\(typedText)'" : "only \(moviesFound) \(moviesFound == 1 ? "movie matches" : "movies match") '\(typedText)'"
        let newYear = suggestion.year.flatMap { $0 == request.year ? nil : $0 }
        var words = request.words
        if let newYear { words.removeAll { $0 == String(newYear) } }
        let advice = if let newYear, words.joined(separator: " ") == suggestion.query {
            "\(newYear) looks like a year: \(command)"
        } else {
            "did you mean '\(TerminalText.safe(suggestion.query))'\(newYear.map { " in \($0)" } ?? "")? (\(command))"
        }
        return outcome + "; " + advice + (found.fromStore ? " — searched the stored movies offline" : "")
    }

    /// The `suggestion` of `--json`.
    var json: MovieJSON.Suggestion {
        MovieJSON.Suggestion(
            query: found.suggestion.query, year: found.suggestion.year, movies: found.suggestion.movies,
            source: found.fromStore ? "store" : "network", command: command
        )
    }
}
