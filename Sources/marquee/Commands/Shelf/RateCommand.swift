import ArgumentParser
import Foundation
import MovieContract
import MovieStore
import TextFormatting

/// `marquee rate ID SCORE` and `marquee rate ID --clear`: a person's rating of a movie.
struct RateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rate",
        abstract: "Rate a movie from 1 to 10, or clear its rating; works offline.",
        discussion: """
            A score is a whole number from 1 to 10. Half-star scales (Letterboxd's 0.5 to 5) are the same scale \
            halved: 7 is three and a half stars. The rating is written on this machine first and shown at once by \
            'marquee ratings'; it is sent to the server now if it answers, else by the next command that uses the network.
            """
    )

    @Argument(help: "The movie's id (shown by every list).", transform: MovieIDArgument.parse)
    var id: Int

    @Argument(help: ArgumentHelp("The score, 1 to 10.", valueName: "score"), transform: ShelfText.parseScore)
    var score: Int?

    @Flag(help: "Clear the movie's rating.")
    var clear = false

    @OptionGroup var options: WatchlistClientOptions
    var client: ClientOptions { options.client }

    func validate() throws {
        if clear, score != nil { throw ValidationError("give a score or --clear, not both") }
        if !clear, score == nil { throw ValidationError("give a score from 1 to 10 (or --clear to remove the rating)") }
        if id == 0 { throw ValidationError("there is no movie 0: ids start at 1") }
        try options.refusePolicy(for: "rate", WatchAddCommand.sendingRule)
    }

    func run() async throws {
        try await CompositionRoot.withWatchlist(client) { watchlist in
            var name = await ShelfNames.movie(id, in: watchlist)
            let before: ShelfView<Ratings>
            do { before = try await watchlist.store.shelf(Ratings.self, api: watchlist.api) } catch { throw CLIError.failed(ErrorReporter.describe(error)) }
            let had = before.line(String(id))
            if name.hasPrefix("movie "), let title = had?.title { name = "\(TerminalText.safe(title)) (\(id))" }
            if clear, had == nil {
                print("\(name.capitalizingFirst) has no rating here; nothing was changed.")
                return
            }
            do {
                _ = try await watchlist.store.recordShelfChange(Ratings.self, key: String(id), value: score.map(Ratings.Value.init(score:)), api: watchlist.api)
            } catch {
                throw CLIError.failed(ErrorReporter.describe(error))
            }
            let delivery = await ShelfSending.send(Ratings.self, watchlist, offline: client.offline)
            if delivery.refused(id) {
                throw CLIError.failed("the server has no movie \(id): it was not rated, and nothing is pending")
            }
            if name.hasPrefix("movie "), let line = try? await watchlist.store.shelf(Ratings.self, api: watchlist.api).line(String(id)), let title = line.title {
                name = "\(TerminalText.safe(title)) (\(id))"
            }
            let done = score.map { "Rated \(name) \(ShelfText.score($0))" } ?? "Cleared the rating of \(name)"
            print("\(done); \(try delivery.sentence())")
        }
    }
}

extension RateCommand: ParsableCommandWithClient {}

extension String {
    /// The text with its first letter capitalised, for a name that starts a sentence.
    var capitalizingFirst: String { prefix(1).uppercased() + dropFirst() }
}
