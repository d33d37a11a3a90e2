import ArgumentParser

/// `marquee top-grossing`: the highest grossing movies of a year.
struct TopGrossingCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "top-grossing",
        abstract: "List the ten highest grossing movies of a year."
    )

    @OptionGroup var year: YearOption
    @OptionGroup var client: ClientOptions

    func run() async throws {
        try await CompositionRoot.withMovieService(client) { service in
            let movies = try await service.topGrossingMovies(year: year.year)
            try MovieOutput(json: client.json).printList(movies, title: "Top grossing movies of \(year.year)")
        }
    }
}
