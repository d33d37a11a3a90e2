import ArgumentParser
import MovieStore
import Networking
import TextFormatting

/// `marquee movie <id>`: one movie with its cast.
struct MovieCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "movie",
        abstract: "Show one movie and its cast."
    )

    @Argument(help: "The movie's id, a whole number.", transform: MovieIDArgument.parse)
    var id: Int

    @OptionGroup var output: OutputOptions
    @OptionGroup var client: ClientOptions

    func run() async throws {
        let yours = await PersonShelfLookup.rating(movieID: id, options: client)
        try await SnapshotQuery.run(
            client,
            output,
            subject: "movies",
            ask: { [id] service, policy, each throws(CacheFailure<NetworkError>) in
                try await service.movie(id: id, policy: policy, each: each)
            },
            traceLine: { "Found movie \(TerminalText.safe($0.name))" },
            show: { try MovieOutput(json: output.json).printMovie($0, provenance: $1, yourRating: yours) }
        )
    }
}
