import ArgumentParser
import Foundation
import MovieStore
import Movies
import TextFormatting

/// `marquee watchlist`: the watchlist as this machine sees it, without the network.
struct WatchlistCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watchlist",
        abstract: "Show the watchlist: the server's last known list with this machine's pending changes.",
        discussion: "Reads the store only. 'marquee sync' sends pending changes and fetches the server's list."
    )

    @Flag(help: "Print JSON instead of a table.")
    var json = false

    @OptionGroup var client: ClientOptions

    func run() async throws {
        try await CompositionRoot.withWatchlist(client.offlineOnly) { watchlist in
            let view: WatchlistView
            do { view = try await watchlist.store.watchlist(api: watchlist.api) } catch { throw CLIError.failed(ErrorReporter.describe(error)) }
            if json {
                try WatchlistOutput.printJSON(view, home: watchlist.home)
            } else {
                WatchlistOutput.printTable(view, home: watchlist.home, now: Date())
            }
        }
    }
}

extension WatchlistCommand: ParsableCommandWithClient {}

extension ClientOptions {
    /// The same options, made to use the store only.
    var offlineOnly: ClientOptions {
        var options = self
        options.offline = true
        options.policy = nil
        return options
    }
}
