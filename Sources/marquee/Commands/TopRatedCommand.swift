import ArgumentParser

/// `marquee top-rated`: the highest rated movies of a year.
struct TopRatedCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "top-rated",
        abstract: "List the ten highest rated movies of a year."
    )

    @OptionGroup var year: YearOption
    @OptionGroup var client: ClientOptions

    func run() async throws {
        try await CompositionRoot.withMovieService(client) { service in
            let movies = try await service.topRatedMovies(year: year.year)
            try MovieOutput(json: client.json).printList(movies, title: "Top rated movies of \(year.year)")
        }
    }
}
