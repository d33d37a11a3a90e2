import ArgumentParser
import MovieContract
import MovieStore
import Movies
import Networking
import TextFormatting

/// `marquee sync`: send the watchlist's pending changes in order, then fetch the server's list.
struct SyncCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Send the watchlist's and the shelf's pending changes to the server, in order, then fetch them.",
        discussion: "Several processes may sync one store at once: they take turns. A change leaves this machine's outbox only when the server has acknowledged it."
    )

    @Option(name: .customLong("batch-size"), parsing: .unconditional, help: ArgumentHelp("Changes sent per request, 1 to \(WatchlistChangeRecord.batchLimit).", valueName: "count"))
    var batchSize = WatchlistChangeRecord.batchLimit

    @OptionGroup var options: WatchlistClientOptions
    var client: ClientOptions { options.client }

    func validate() throws {
        guard (1...WatchlistChangeRecord.batchLimit).contains(batchSize) else {
            throw ValidationError("the batch size must be from 1 to \(WatchlistChangeRecord.batchLimit), not \(batchSize)")
        }
        if client.offline { throw ValidationError("sync uses the network: drop --offline ('marquee watchlist' shows the list without it)") }
        try options.refusePolicy(for: "sync", "it always sends the pending changes to the server and fetches its list")
    }

    func run() async throws {
        try await CompositionRoot.withWatchlist(client, batchSize: batchSize) { watchlist in
            guard let sync = watchlist.sync else {
                if case let .thisMachine(reason) = watchlist.home {
                    print("Nothing to sync: \(reason); the watchlist is kept on this machine.")
                }
                return
            }
            let waiting = (try? await watchlist.store.pendingWatchlistChanges(api: watchlist.api).count) ?? 0
            let notice = "of the \(NumberText.counted(waiting, "change")) pending when sync began, those the server had not acknowledged stay pending on this machine: 'marquee sync' sends them"
            var watchlistSynced = false
            do throws(WatchlistSyncFailure<NetworkError>) {
                let report = try await InterruptionNotice.during(notice) { () async throws(WatchlistSyncFailure<NetworkError>) in try await sync.sync() }
                await WatchlistTitles.fetchMissing(watchlist, movies: watchlist.movies)
                let holds: String
                do {
                    holds = "; the watchlist holds \(NumberText.counted(try await watchlist.store.watchlist(api: watchlist.api).movieIDs.count, "movie"))"
                } catch {
                    holds = "; the list could not be read back from this machine's store (\(ErrorReporter.describe(error)))"
                }
                print("Synced: \(WatchlistText.summary(of: report))\(holds).")
                watchlistSynced = true
            } catch .noWatchlist {
                print("Nothing to sync: the server keeps no watchlist (it has no /api/watchlist); the watchlist is kept on this machine.")
            } catch {
                let pending: String
                do {
                    pending = "\(NumberText.counted(try await watchlist.store.pendingWatchlistChanges(api: watchlist.api).count, "change")) still pending on this machine"
                } catch {
                    pending = "the changes pending on this machine could not be counted (\(ErrorReporter.describe(error)))"
                }
                var sent = ""
                if case let .network(_, before) = error, before.delivered > 0 { sent = "\(WatchlistText.summary(of: before)), then " }
                throw CLIError.failed("sync: \(sent)\(WatchlistText.describe(error)); \(pending)")
            }
            if watchlistSynced { try await ShelfSyncing.syncEveryKind(watchlist) }
        }
    }
}

extension SyncCommand: ParsableCommandWithClient {}
