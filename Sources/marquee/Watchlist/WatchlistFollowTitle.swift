import MovieStore
import Movies
import Networking

/// A movie's title and year as `--follow` names it in a change's line: the movie stored here,
/// else the title the server's list gave, else (a movie new to this machine) fetched once.
struct WatchlistFollowTitle: Sendable, Hashable {
    var name: String?
    var year: Int?

    /// "Deadpool (2016)", or words saying the title could not be had.
    var text: String {
        guard let name else { return "a movie this machine has no title for" }
        return year.map { "\(name) (\($0))" } ?? name
    }

    static func of(_ movieID: Int, in watchlist: AppWatchlist) async -> WatchlistFollowTitle {
        if let found = await stored(movieID, in: watchlist) { return found }
        if let movies = watchlist.movies {
            do throws(CacheFailure<NetworkError>) {
                _ = try await movies.movie(id: movieID, policy: .networkElseCache) { _ in }
            } catch {
                return WatchlistFollowTitle()
            }
            return await stored(movieID, in: watchlist) ?? WatchlistFollowTitle()
        }
        return WatchlistFollowTitle()
    }

    private static func stored(_ movieID: Int, in watchlist: AppWatchlist) async -> WatchlistFollowTitle? {
        if let movie = try? await watchlist.store.movie(id: movieID, api: WatchlistScope.api(of: watchlist.api)) {
            return WatchlistFollowTitle(name: movie.value.name, year: movie.value.year)
        }
        let line = (try? await watchlist.store.watchlist(api: watchlist.api))?.lines.first { $0.movieID == movieID }
        guard let title = line?.title else { return nil }
        return WatchlistFollowTitle(name: title, year: line?.year)
    }
}
