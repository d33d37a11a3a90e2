import MovieStore
import TextFormatting

/// How the shelf's commands name a movie: "Deadpool (6)" when this machine has it, else "movie 6".
enum ShelfNames {
    static func movie(_ id: Int, in watchlist: AppWatchlist) async -> String {
        let stored = (try? await watchlist.store.movie(id: id, api: WatchlistScope.api(of: watchlist.api))).flatMap { $0 }?.value
        return stored.map { "\(TerminalText.safe($0.name)) (\(id))" } ?? "movie \(id)"
    }
}
