import ArgumentParser
import Foundation
import Logging
import MovieContract
import MovieStore

/// `marquee ratings`: the person's ratings as this machine sees them.
struct RatingsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ratings",
        abstract: "Show your ratings: the server's, with this machine's pending changes.",
        discussion: "Online, sends pending ratings and fetches the server's first; when the server cannot be reached, shows those kept here and says why. --offline reads the store only."
    )

    enum Sort: String, ExpressibleByArgument, CaseIterable {
        case score, date, title
    }

    @Option(help: ArgumentHelp("The order: score (highest first), date (latest first) or title.", valueName: "order"))
    var sort: Sort = .date

    @Flag(help: "Print JSON instead of a table (with --follow, one object a line after it).")
    var json = false

    @Flag(help: "Show the ratings, then print each change as it arrives from the server, until Ctrl-C.")
    var follow = false

    @OptionGroup var options: WatchlistClientOptions
    var client: ClientOptions { options.client }

    func validate() throws {
        if follow, client.offline { throw ValidationError("--follow needs the network: it cannot be used with --offline") }
        try options.refusePolicy(for: "ratings", "it shows the ratings stored here after sending and fetching them; --offline reads the store only")
    }

    func run() async throws {
        try await CompositionRoot.withWatchlist(client.offline ? client.offlineOnly : client, showsOnly: true) { watchlist in
            if let problem = try await ShelfSending.refresh(Ratings.self, watchlist) {
                Logger(label: "marquee").warning("showing the ratings kept on this machine: \(problem)")
            }
            let view: ShelfView<Ratings>
            do { view = try await watchlist.store.shelf(Ratings.self, api: watchlist.api) } catch { throw CLIError.failed(ErrorReporter.describe(error)) }
            let rows = await RatingsOutput.rows(view, sortedBy: sort, in: watchlist)
            if json {
                try RatingsOutput.printJSON(rows, pending: view.pendingCount)
            } else {
                RatingsOutput.printTable(rows, pending: view.pendingCount, home: watchlist.home)
            }
            guard follow else { return }
            fflush(nil)
            try await ShelfFollow.run(watchlist, kinds: [Ratings.self], json: json) { await ShelfFollowLines.rating($0, in: watchlist) }
        }
    }
}

extension RatingsCommand: ParsableCommandWithClient {}
