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
        try await SnapshotQuery.runTopList(client, year: year.year, title: "Top grossing movies of") { $0.topGrossingMovies(year: $1, policy: $2) }
    }
}
