/// The limits of the movie API that a client must keep to and the server enforces: a request
/// past one is refused with a 400 that names it. One list, read by both sides.
public enum APILimits {
    /// The page sizes a search or listing may ask for.
    public static let pageSizes = 1...100
    /// The page size when none is asked for.
    public static let defaultPageSize = 20
    /// The longest search query, in Unicode code points.
    public static let queryLength = 200
    /// The most words a search query may have.
    public static let queryWords = 12
    /// The longest page cursor, in bytes.
    public static let cursorLength = 1024
    /// The most movies a top list holds.
    public static let topListCount = 10
    /// The most changes one `POST /api/watchlist/changes` may carry.
    public static let watchlistBatch = 500
    /// The records of a page of `GET /api/{kind}` (the shelf's kinds): 1,000 unless asked, at most 5,000.
    public static let shelfPageSizes = 1...5_000
    public static let defaultShelfPageSize = 1_000
    /// The longest note, in Unicode code points.
    public static let noteLength = 1000
    /// The longest device name of a watchlist change, in visible ASCII characters.
    public static let deviceLength = 100
    /// The longest `Idempotency-Key` or change id, in visible ASCII characters.
    public static let idempotencyKeyLength = 200
}
