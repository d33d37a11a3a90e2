import ArgumentParser
import MovieContract
import Movies

/// `marquee search TEXT`: find movies by words of their title or cast, online and offline.
struct SearchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search",
        abstract: "Find movies by words of their title or cast (case and accents ignored, the last word a prefix).",
        discussion: "When the server cannot be asked, or with --offline, the movies stored for the API are searched by the same rules, and the answer says so."
    )

    @Argument(help: "The words to search for (quotes are not needed: every word given counts).")
    var words: [String] = []

    private var text: String { words.joined(separator: " ") }

    @OptionGroup var search: SearchOptions<SearchSort>
    @OptionGroup var output: OutputOptions
    @OptionGroup var client: ClientOptions

    func validate() throws {
        guard !text.trimmingCharacters(in: .whitespaces).isEmpty else { throw ValidationError("give words to search for") }
        let longest = MovieSearchRequest.maximumQueryLength
        guard text.unicodeScalars.count <= longest else { throw ValidationError("the words to search for are longer than \(longest) characters (Unicode code points)") }
        try search.validate(with: client)
    }

    func run() async throws {
        let request = search.request(text: text)
        let scope = MovieFilterText.phrase(year: request.year, filter: request.filter)
        try await SearchQuery.run(request, all: search.all, title: "Movies\(scope) matching '\(text)'", client, output)
    }
}
