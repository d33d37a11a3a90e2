import ArgumentParser
import Foundation
import MovieContract
import MovieStore
import TextFormatting

/// `marquee watched ID [--on DATE] [--rewatch] [--note TEXT] [--keep-on-watchlist]`: a viewing
/// logged in the diary.
struct WatchedCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watched",
        abstract: "Log a viewing of a movie in the diary; works offline.",
        discussion: """
            A movie may be logged any number of times (--rewatch marks one seen before). Logging a movie that is \
            on the watchlist takes it off, as Letterboxd does, and says so; --keep-on-watchlist keeps it. The day \
            is today on this machine unless --on names another; a day in the future or before 1888 is refused.
            """
    )

    @Argument(help: "The movie's id (shown by every list).", transform: MovieIDArgument.parse)
    var id: Int

    @Option(help: ArgumentHelp("The day it was watched, YYYY-MM-DD (today by default).", valueName: "date"))
    var on: String?

    @Flag(help: "Mark the viewing as a rewatch.")
    var rewatch = false

    @Option(help: ArgumentHelp("A note kept with the viewing (at most \(WatchlistNote.maximumLength) characters, no control characters).", valueName: "text"))
    var note: String?

    @Flag(help: "Leave the movie on the watchlist.")
    var keepOnWatchlist = false

    @OptionGroup var options: WatchlistClientOptions
    var client: ClientOptions { options.client }

    func validate() throws {
        if id == 0 { throw ValidationError("there is no movie 0: ids start at 1") }
        if let on, let problem = Self.dayProblem(on) { throw ValidationError(problem) }
        if let note, let problem = WatchlistNote.problem(with: note) { throw ValidationError(problem) }
        try options.refusePolicy(for: "watched", WatchAddCommand.sendingRule)
    }

    /// Why `text` is not a day a viewing may have here: the server's rule, with today on this
    /// machine's calendar as the last day.
    static func dayProblem(_ text: String, today: String = LocalDay.today()) -> String? {
        if let problem = Diary.dayProblem(text, today: Date.distantFuture) { return problem }
        return text > today ? "\(text) is in the future (today is \(today)): a diary logs what was watched" : nil
    }

    func run() async throws {
        let day = on ?? LocalDay.today()
        try await CompositionRoot.withWatchlist(client) { watchlist in
            let name = await ShelfNames.movie(id, in: watchlist)
            let onWatchlist: Bool
            do {
                onWatchlist = try await watchlist.store.watchlist(api: watchlist.api).lines.contains { $0.movieID == id && $0.pending != .removing }
                _ = try await watchlist.store.recordShelfChange(
                    Diary.self, key: UUID().uuidString.lowercased(),
                    value: Diary.Value(movieId: id, watchedOn: day, rewatch: rewatch, note: note ?? ""), api: watchlist.api
                )
                if onWatchlist, !keepOnWatchlist {
                    _ = try await watchlist.store.recordWatchlistChange(movieID: id, action: .remove, api: watchlist.api)
                }
            } catch {
                throw CLIError.failed(ErrorReporter.describe(error))
            }
            let delivery = await ShelfSending.send(Diary.self, watchlist, offline: client.offline)
            if delivery.refused(id) {
                throw CLIError.failed("the server has no movie \(id): it was not logged, and nothing is pending")
            }
            var sentence = "Logged \(name) in the diary, watched \(day)\(rewatch ? " (a rewatch)" : "")"
            if onWatchlist {
                if keepOnWatchlist {
                    sentence += "; kept it on the watchlist"
                } else {
                    sentence += "; took it off the watchlist"
                    _ = await WatchlistSending.send(watchlist, offline: client.offline)
                }
            }
            print("\(sentence); \(try delivery.sentence())")
        }
    }
}

extension WatchedCommand: ParsableCommandWithClient {}
