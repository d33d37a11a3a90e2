import GRDB
import MovieContract
import Movies

extension StoreMigrations {
    /// Schema v8: a movie's title key is its folded title cut to ``SearchText/titleKeyLength``
    /// code points, as the server orders titles (SQLite's `substr` and `length` count code points).
    static func boundTitleKeys(_ db: Database) throws {
        try db.execute(
            sql: "UPDATE movie SET titleKey = substr(titleKey, 1, ?) WHERE length(titleKey) > ?",
            arguments: [SearchText.titleKeyLength, SearchText.titleKeyLength]
        )
    }
}
