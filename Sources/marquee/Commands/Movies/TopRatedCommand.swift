import ArgumentParser
import Movies

/// `marquee top-rated`: the highest rated movies of a year.
struct TopRatedCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "top-rated",
        abstract: "List the ten highest rated movies of a year."
    )

    @OptionGroup var year: YearOption
    @OptionGroup var output: OutputOptions
    @OptionGroup var client: ClientOptions

    func run() async throws {
        try await SnapshotQuery.runList(client, output, .topRated, year: year.year, title: "Top rated movies of")
    }
}
