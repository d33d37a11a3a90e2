import Foundation

extension WatchlistSyncFailure: CustomStringConvertible, LocalizedError {
    /// What stopped the sync, in words a person can act on; the changes delivered before a
    /// network failure are counted, never shown as values.
    public var description: String {
        switch self {
        case let .network(failure, sentBefore):
            let delivered = sentBefore.delivered
            let words = (failure as? any LocalizedError)?.errorDescription ?? String(describing: failure)
            return delivered == 0 ? words : "\(words) (after \(delivered) change\(delivered == 1 ? " was" : "s were") sent)"
        case .noWatchlist:
            return "the server keeps no watchlist (it has no /api/watchlist); the list is kept on this machine"
        case let .store(failure):
            return failure.description
        case let .lock(reason):
            return reason
        }
    }

    public var errorDescription: String? { description }
}
