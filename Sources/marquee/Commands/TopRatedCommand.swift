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
        try await SnapshotQuery.run(
            client,
            subject: "movies of \(year.year)",
            ask: { [year = year.year] service, policy in service.topRatedMovies(year: year, policy: policy) },
            traceLine: { "Found \($0.count) movies" },
            print: { try MovieOutput(json: client.json).printList($0, title: "Top rated movies of \(year.year)", provenance: $1) }
        )
    }
}
