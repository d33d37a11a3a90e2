import ArgumentParser
import Movies

/// `marquee top-grossing`: the highest grossing movies of a year.
struct TopGrossingCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "top-grossing",
        abstract: "List the ten highest grossing movies of a year."
    )

    @OptionGroup var year: YearOption
    @OptionGroup var output: OutputOptions
    @OptionGroup var client: ClientOptions

    func run() async throws {
        try await SnapshotQuery.runList(client, output, .topGrossing, year: year.year, title: "Top grossing movies of")
    }
}
