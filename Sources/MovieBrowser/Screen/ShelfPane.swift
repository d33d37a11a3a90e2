import MovieStore

/// A segment of the person's shelf beyond the watchlist (Ratings, Diary, Lists): its rows as the
/// store's overview gives them, one screen line each, and the selected one.
public struct ShelfPane: Sendable, Equatable {
    /// One line of the segment.
    public struct Row: Sendable, Equatable {
        public enum Kind: Sendable, Equatable {
            /// A rated movie, with its score (1–10).
            case rating(Int)
            /// A viewing on a day (`YYYY-MM-DD`).
            case viewing(watchedOn: String, rewatch: Bool)
            /// A list's own line, with how many movies it holds.
            case list(movies: Int)
            /// A movie of the list above, at this place (1 is the top).
            case listItem(place: Int)
        }

        public var kind: Kind
        /// What stays the same across reads (the movie, the entry, the list's item), so that the
        /// selection stays on it when the rows change.
        public var identity: String
        /// The movie's title and year, or the list's name; `nil` for a movie not known here.
        public var title: String?
        /// The note, or the list's description.
        public var note: String
        public var movieID: Int?
        public var isPending: Bool
    }

    public private(set) var rows: [Row] = []
    private var selected = RowSelection()
    public var selection: Int { selected.selected }
    public var firstVisible: Int { selected.firstVisible }

    public init() {}

    public var selectedRow: Row? { rows.indices.contains(selection) ? rows[selection] : nil }

    public var pendingCount: Int { rows.filter(\.isPending).count }

    /// Shows `rows`, keeping the same record selected when it is still there.
    mutating func show(_ rows: [Row]) {
        let identity = selectedRow?.identity
        self.rows = rows
        select(rows.firstIndex { $0.identity == identity } ?? selection)
    }

    mutating func move(by count: Int) {
        select(selection + count)
    }

    mutating func select(_ row: Int) {
        selected.select(row, count: rows.count)
    }

    mutating func reveal(visibleLines: Int) {
        selected.reveal(visibleRows: visibleLines, count: rows.count)
    }

    /// The rows of `tab` in `overview`: the ratings newest first, the diary newest viewing first,
    /// each list by name followed by its movies in the owner's order.
    static func rows(of tab: BrowserTab, in overview: ShelfOverview) -> [Row] {
        switch tab {
        case .ratings:
            return overview.ratings.map {
                Row(kind: .rating($0.score), identity: "\($0.movieID)", title: $0.title, note: "", movieID: $0.movieID, isPending: $0.isPending)
            }
        case .diary:
            return overview.diary.map {
                Row(kind: .viewing(watchedOn: $0.watchedOn, rewatch: $0.rewatch), identity: $0.entry, title: $0.title, note: $0.note, movieID: $0.movieID, isPending: $0.isPending)
            }
        case .lists:
            return overview.lists.flatMap { list in
                [Row(kind: .list(movies: list.items.count), identity: list.id, title: list.name, note: list.description, movieID: nil, isPending: list.isPending)]
                    + list.items.enumerated().map { place, item in
                        Row(kind: .listItem(place: place + 1), identity: "\(list.id)/\(item.movieID)", title: item.title, note: item.note, movieID: item.movieID, isPending: item.isPending)
                    }
            }
        case .topGrossing, .topRated, .watchlist:
            return []
        }
    }
}
