import ArgumentParser
import MovieAPI
import Foundation
import Logging
import MovieStore
import Networking
import Movies
import TextFormatting

/// `marquee watchlist`: the watchlist as this machine sees it, without the network.
struct WatchlistCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watchlist",
        abstract: "Show the watchlist: the server's last known list with this machine's pending changes.",
        discussion: "Online, sends pending changes and fetches the server's list first (with each movie's title), then shows it; when the server cannot be reached, shows the list kept here and says why. --offline reads the store only. With --follow, then prints each change the server's live feed brings until interrupted (Ctrl-C)."
    )

    @Flag(help: "Print JSON instead of a table (with --follow, one object a line).")
    var json = false

    @Flag(help: "Sync, show the list, then print each change as it arrives from the server, until Ctrl-C.")
    var follow = false

    @OptionGroup var options: WatchlistClientOptions
    var client: ClientOptions { options.client }

    func validate() throws {
        if follow, client.offline { throw ValidationError("--follow needs the network: it cannot be used with --offline") }
        try options.refusePolicy(for: "watchlist", "it shows the list stored here (with --follow, then the server's live feed); 'marquee sync' fetches the server's list")
    }

    func run() async throws {
        if follow { return try await runFollowing() }
        try await CompositionRoot.withWatchlist(client.offline ? client.offlineOnly : client, showsOnly: true) { watchlist in
            try await Self.refresh(watchlist)
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

extension WatchlistCommand {
    private func runFollowing() async throws {
        try await CompositionRoot.withWatchlist(client) { watchlist in
            var serverWasDown = false
            if let sync = watchlist.sync {
                do throws(WatchlistSyncFailure<NetworkError>) {
                    _ = try await sync.sync()
                } catch {
                    // A server that cannot be reached now is what the live feed waits out.
                    guard case let .network(failure, _) = error, failure.meansServerUnavailable else { throw CLIError.failed(ErrorReporter.describe(error)) }
                    Logger(label: "marquee").warning("\(ErrorReporter.describe(error)); showing the list stored here, and trying to reach the server until Ctrl-C")
                    serverWasDown = true
                }
            }
            let view: WatchlistView
            do { view = try await watchlist.store.watchlist(api: watchlist.api) } catch { throw CLIError.failed(ErrorReporter.describe(error)) }
            if json {
                try WatchlistOutput.printJSON(view, home: watchlist.home, compact: true)
            } else {
                WatchlistOutput.printTable(view, home: watchlist.home, now: Date())
            }
            fflush(nil)
            try await WatchlistFollow.run(watchlist, json: json, shown: view, serverWasDown: serverWasDown)
        }
    }
}

extension WatchlistCommand {
    /// Online, the server's list (and this machine's pending changes sent first), whose entries
    /// name their movies: one request, however long the list. A failure leaves the stored list,
    /// with a warning saying why; a person whose session has ended is signed out here, and the
    /// command ends non-zero saying so, as every later one does until they sign in again.
    static func refresh(_ watchlist: AppWatchlist) async throws {
        guard let sync = watchlist.sync else { return }
        do throws(WatchlistSyncFailure<NetworkError>) {
            _ = try await sync.sync()
        } catch .noWatchlist {
            return
        } catch {
            let words = WatchlistText.describe(error)
            if let signedOut = SignedOut.sentence(in: words) { throw CLIError.failed(signedOut) }
            Logger(label: "marquee").warning("showing the list kept on this machine: \(words)")
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
