import MovieAPI
import MovieContract
import MovieStore

/// Sends a kind's outbox after a change, and fetches the server's records of it: what became of
/// the change, in the words ``WatchlistSending`` says them.
enum ShelfSending {
    static func send<Kind: ShelfKind>(_ kind: Kind.Type, _ watchlist: AppWatchlist, offline: Bool) async -> WatchlistSending {
        if case let .thisMachine(reason) = watchlist.home { return .kept(reason) }
        guard let shelf = watchlist.shelf else { return offline ? .pending : .notSent("the server cannot be used this run") }
        do {
            let report = try await shelf.push(kind)
            try? await shelf.pull(kind)
            return .sent(
                superseded: (report.counts[.superseded] ?? 0) > 0, unknownMovies: report.unknownMovies(of: kind), deletedLists: report.unknownListChanges.count
            )
        } catch {
            return .notSent(ShelfText.describe(error))
        }
    }

    /// Pushes and pulls `kind` before it is shown; a failure leaves the records kept here, with a
    /// warning, and a person whose session ended is an error.
    static func refresh<Kind: ShelfKind>(_ kind: Kind.Type, _ watchlist: AppWatchlist) async throws -> String? {
        guard let shelf = watchlist.shelf else { return nil }
        do {
            _ = try await shelf.sync(kind)
            return nil
        } catch {
            let words = ShelfText.describe(error)
            if let signedOut = SignedOut.sentence(in: words) { throw CLIError.failed(signedOut) }
            return words
        }
    }
}
