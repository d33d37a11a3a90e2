import Logging
import MovieStore
import Movies
import Networking

/// Sending the outbox from commands that use the network for something else: quietly (a line
/// in `--verbose` only), without waiting for another process that is sending it, and never
/// failing the command.
enum WatchlistDelivery {
    static func pushQuietly(_ sync: AppWatchlistSync) async {
        let logger = Logger(label: "marquee.watchlist")
        let pending: Int
        do { pending = try await sync.store.pendingWatchlistChanges(api: sync.api, limit: 1).count } catch { return }
        guard pending > 0 else { return }
        do {
            let report = try await sync.push(waiting: false)
            switch report {
            case .busy: logger.info("watchlist: another process is sending the pending changes")
            case .sent:
                logger.info("watchlist: \(WatchlistText.summary(of: report)) first")
                try? await sync.pull()
            }
        } catch {
            logger.info("watchlist: pending changes not sent (\(WatchlistText.describe(error))); they stay on this machine")
        }
    }
}
