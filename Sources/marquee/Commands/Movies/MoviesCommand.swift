import ArgumentParser
import MovieContract
import Movies

/// `marquee movies`: the whole catalogue (or a year of it) in any order, a page at a time.
struct MoviesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "movies",
        abstract: "List every movie (or those of a year, genre, runtime, votes or rating) by grossing, rating, release date or title, a page at a time."
    )

    @OptionGroup var search: SearchOptions<ListingSort>
    @OptionGroup var output: OutputOptions
    @OptionGroup var client: ClientOptions

    func validate() throws {
        try search.validate(with: client)
    }

    func run() async throws {
        let request = search.request(text: nil)
        let scope = MovieFilterText.phrase(year: request.year, filter: request.filter)
        try await SearchQuery.run(request, all: search.all, title: "Movies\(scope) by \(request.effectiveSort.rawValue)", client, output)
    }
}
