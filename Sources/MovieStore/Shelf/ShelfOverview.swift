import GRDB
import MovieContract

/// The shelf beyond the watchlist as a screen shows it: the ratings, the diary and the lists with
/// their movies, each with its title where this machine knows one, and pending changes marked.
/// Read in one transaction with the watchlist, so that the browser's tabs agree with each other.
public struct ShelfOverview: Sendable, Hashable {
    /// One rated movie.
    public struct Rating: Sendable, Hashable {
        public var movieID: Int
        public var score: Int
        public var title: String?
        public var isPending: Bool

        public init(movieID: Int, score: Int, title: String?, isPending: Bool) {
            self.movieID = movieID
            self.score = score
            self.title = title
            self.isPending = isPending
        }
    }

    /// One logged viewing.
    public struct Viewing: Sendable, Hashable {
        public var entry: String
        public var movieID: Int
        /// The day, `YYYY-MM-DD`.
        public var watchedOn: String
        public var rewatch: Bool
        public var note: String
        public var title: String?
        public var isPending: Bool

        public init(entry: String, movieID: Int, watchedOn: String, rewatch: Bool, note: String, title: String?, isPending: Bool) {
            self.entry = entry
            self.movieID = movieID
            self.watchedOn = watchedOn
            self.rewatch = rewatch
            self.note = note
            self.title = title
            self.isPending = isPending
        }
    }

    /// One of the person's lists, its movies in the owner's order.
    public struct List: Sendable, Hashable {
        public struct Item: Sendable, Hashable {
            public var movieID: Int
            public var note: String
            public var title: String?
            public var isPending: Bool

            public init(movieID: Int, note: String, title: String?, isPending: Bool) {
                self.movieID = movieID
                self.note = note
                self.title = title
                self.isPending = isPending
            }
        }

        public var id: String
        public var name: String
        public var description: String
        public var items: [Item]
        public var isPending: Bool

        public init(id: String, name: String, description: String, items: [Item], isPending: Bool) {
            self.id = id
            self.name = name
            self.description = description
            self.items = items
            self.isPending = isPending
        }
    }

    /// Newest rating first.
    public var ratings: [Rating] = []
    /// Newest viewing first (by the day watched, then by when it was logged).
    public var diary: [Viewing] = []
    /// By name.
    public var lists: [List] = []

    public init(ratings: [Rating] = [], diary: [Viewing] = [], lists: [List] = []) {
        self.ratings = ratings
        self.diary = diary
        self.lists = lists
    }
}

extension ShelfOverview {
    /// The ratings alone, without their titles: what a movie's page needs beside the watchlist.
    static func ratings(api: String, in db: Database) throws -> ShelfOverview {
        ShelfOverview(ratings: try ShelfStoring.view(Ratings.self, api: api, in: db).lines.compactMap { line in
            Ratings.movieID(line.key).map { Rating(movieID: $0, score: line.value.score, title: nil, isPending: line.isPending) }
        })
    }

    /// The overview of `api`'s shelf as the store holds it, in `db`'s transaction.
    static func read(api: String, in db: Database) throws -> ShelfOverview {
        var titles = ShelfTitles(api: api, db: db)
        var overview = ShelfOverview()
        for line in try ShelfStoring.view(Ratings.self, api: api, in: db).lines {
            guard let movieID = Ratings.movieID(line.key) else { continue }
            overview.ratings.append(Rating(
                movieID: movieID, score: line.value.score, title: try titles.title(of: movieID, given: line.title, year: line.year), isPending: line.isPending
            ))
        }
        let viewings = try ShelfStoring.view(Diary.self, api: api, in: db).lines.sorted {
            ($0.value.watchedOn, $0.changedAt, $1.key) > ($1.value.watchedOn, $1.changedAt, $0.key)
        }
        for line in viewings {
            overview.diary.append(Viewing(
                entry: line.key, movieID: line.value.movieId, watchedOn: line.value.watchedOn, rewatch: line.value.rewatch, note: line.value.note,
                title: try titles.title(of: line.value.movieId, given: line.title, year: line.year), isPending: line.isPending
            ))
        }
        var items: [String: [(position: String, item: List.Item)]] = [:]
        for line in try ShelfStoring.view(ListItems.self, api: api, in: db).lines {
            guard let list = ListItems.parts(line.key)?.list, let movieID = ListItems.movieID(key: line.key) else { continue }
            let item = List.Item(movieID: movieID, note: line.value.note, title: try titles.title(of: movieID, given: line.title, year: line.year), isPending: line.isPending)
            items[list, default: []].append((line.value.position, item))
        }
        for line in try ShelfStoring.view(Lists.self, api: api, in: db).lines {
            let ordered = (items[line.key] ?? []).sorted { ($0.position, $0.item.movieID) < ($1.position, $1.item.movieID) }
            overview.lists.append(List(
                id: line.key, name: line.value.name, description: line.value.description, items: ordered.map(\.item), isPending: line.isPending
            ))
        }
        overview.lists.sort { ($0.name.lowercased(), $0.id) < ($1.name.lowercased(), $1.id) }
        return overview
    }
}

/// "Title (year)" of the movies a shelf names: the server's, else the stored movie's, each looked
/// up once.
private struct ShelfTitles {
    let api: String
    let db: Database
    private var stored: [Int: String?] = [:]

    init(api: String, db: Database) {
        self.api = api
        self.db = db
    }

    mutating func title(of movieID: Int, given title: String?, year: Int?) throws -> String? {
        if let title { return year.map { "\(title) (\($0))" } ?? title }
        if let known = stored[movieID] { return known }
        let movie = try MovieReading.movie(id: movieID, api: WatchlistScope.api(of: api), in: db)?.value
        let found = movie.map { "\($0.name) (\($0.year))" }
        stored[movieID] = found
        return found
    }
}
