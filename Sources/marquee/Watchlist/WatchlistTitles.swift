import Logging
import MovieStore
import Movies
import Networking

/// After a sync, the movies on the watchlist this store has never stored (added on another
/// machine, or by id) are asked for, so that the list shows their titles. At most
/// ``maximumFetches`` a sync; a failure leaves the line as it was.
enum WatchlistTitles {
    static let maximumFetches = 20

    static func fetchMissing(_ watchlist: AppWatchlist, movies: AppMovieService?) async {
        guard let movies, let view = try? await watchlist.store.watchlist(api: watchlist.api) else { return }
        let missing = view.lines.filter { $0.movie == nil && $0.pending != .removing }.map(\.movieID).prefix(maximumFetches)
        for id in missing {
            do throws(CacheFailure<NetworkError>) {
                _ = try await movies.movie(id: id, policy: .networkElseCache) { _ in }
            } catch {
                Logger(label: "marquee.watchlist").info("watchlist: the title of movie \(id) was not fetched (\(ErrorReporter.describe(error)))")
            }
        }
    }
}
