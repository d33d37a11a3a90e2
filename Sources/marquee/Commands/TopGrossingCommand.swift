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
        try await SnapshotQuery.run(
            client,
            subject: "movies of \(year.year)",
            ask: { [year = year.year] service, policy in service.topGrossingMovies(year: year, policy: policy) },
            traceLine: { "Found \($0.count) movies" },
            print: { try MovieOutput(json: client.json).printList($0, title: "Top grossing movies of \(year.year)", provenance: $1) }
        )
    }
}
