import Foundation
import MovieContract
import Movies
import TextFormatting

/// Draws a ``BrowserState`` as the lines of a terminal of a given size: a title with the
/// segmented control, the table (or the open movie, or the keys), a status line and a key line.
///
/// Every line is exactly `width` columns (wide characters counted as two), so a frame
/// overwrites the previous one completely. With `color`, the selected segment and row are in
/// reverse video and the cast is dimmed; without (`NO_COLOR`), the same text carries the marks.
public struct BrowserLayout: Sendable {
    public var width: Int
    public var height: Int
    public var color: Bool

    /// Below this, the screen asks for a larger terminal instead of drawing a broken table.
    public static let minimumWidth = 40
    /// The columns the live feed's state has on the status line however long the status is:
    /// `reconnecting in 1.4 s: ` and a little of why.
    static let liveColumns = 26
    public static let minimumHeight = 8

    public init(width: Int, height: Int, color: Bool) {
        self.width = width
        self.height = height
        self.color = color
    }

    /// How many movies fit in the table: two lines each, below the title and header, above the
    /// status and key lines.
    public var visibleRows: Int { max(1, (height - 4) / 2) }

    /// How many movies fit in the table of `state`: fewer when it warns of the store.
    public func visibleRows(for state: BrowserState) -> Int {
        warned(state)?.visibleRows ?? visibleRows
    }

    /// The frame of `state`: with the store's problem on lines of its own above the status line,
    /// on every screen, when the store keeps nothing this run.
    public func lines(for state: BrowserState, now: Date) -> [String] {
        guard let shorter = warned(state) else { return frame(for: state, now: now) }
        var lines = shorter.frame(for: state, now: now)
        lines.insert(contentsOf: warning(state).map { styled($0, .reverse) }, at: lines.count - 2)
        return lines
    }

    /// The most lines the store's warning takes; what does not fit ends in `…`.
    static let warningLines = 3

    /// The store's problem, word-wrapped to the width, in at most ``warningLines`` lines.
    private func warning(_ state: BrowserState) -> [String] {
        guard let problem = state.storeProblem else { return [] }
        var lines: [String] = []
        var line = ""
        for word in TerminalText.safe(problem).split(separator: " ").map(String.init) {
            let joined = line.isEmpty ? word : line + " " + word
            if DisplayWidth.of(joined) <= width - 3 || line.isEmpty {
                line = joined
            } else {
                lines.append(line)
                line = word
            }
        }
        lines.append(line)
        var shown = Array(lines.prefix(Self.warningLines))
        if lines.count > Self.warningLines { shown[shown.count - 1] = DisplayWidth.truncate(shown[shown.count - 1] + " …", to: width - 3) }
        return shown.enumerated().map { ($0.offset == 0 ? " ! " : "   ") + $0.element }
    }

    /// The layout of everything but the store's warning, when `state` has one to show.
    private func warned(_ state: BrowserState) -> BrowserLayout? {
        let count = warning(state).count
        guard count > 0, width >= Self.minimumWidth, height - count >= Self.minimumHeight else { return nil }
        var shorter = self
        shorter.height -= count
        return shorter
    }

    private func frame(for state: BrowserState, now: Date) -> [String] {
        guard width >= Self.minimumWidth, height >= Self.minimumHeight else {
            let message = DisplayWidth.fit(Self.sizeMessage(fitting: max(1, width)), to: max(1, width))
            return [message] + Array(repeating: String(repeating: " ", count: max(1, width)), count: max(0, height - 1))
        }
        var body: [String]
        let answer: Answer
        let subject = "movies of \(state.year)"
        if state.showsHelp {
            body = Self.helpLines.map { plain($0) }
            answer = state.detail?.answer ?? state.pane.answer
        } else if let detail = state.detail {
            body = detailLines(detail, watchlist: state.watchlist)
            answer = detail.answer
        } else if let search = state.search {
            let filterLine = SearchLine(search.text).summary.map { [styled(" " + TerminalText.safe($0), .dim)] } ?? []
            body = [styled(" Search: " + TerminalText.safe(search.text) + "▏", .bold)] + filterLine + [header(ranks: search.results.movies.count)]
                + searchLines(search, watchlist: state.watchlist)
            answer = search.results.answer
        } else if state.tab == .watchlist {
            body = watchlistLines(state.watchlist)
            answer = Answer()
        } else if state.tab.isShelf {
            body = state.watchlist.signIn.map(signInLines) ?? shelfLines(state.shelf[state.tab] ?? ShelfPane(), tab: state.tab, loaded: state.watchlist.isLoaded)
            answer = Answer()
        } else {
            body = [header(ranks: state.pane.movies.count)] + tableLines(state.pane, watchlist: state.watchlist)
            answer = state.pane.answer
        }
        let bodyHeight = height - 3
        body = Array(body.prefix(bodyHeight))
        body += Array(repeating: plain(""), count: bodyHeight - body.count)
        let searching = state.search.map { $0.text.trimmingCharacters(in: .whitespaces).isEmpty && state.detail == nil && !state.showsHelp } ?? false
        let onShelf = state.tab.list == nil && state.detail == nil && state.search == nil && !state.showsHelp
        let listStatus = !onShelf ? answer.status(now: now, subject: subject)
            : state.tab == .watchlist ? Self.watchlistStatus(state.watchlist)
            : Self.shelfStatus(state.shelf[state.tab] ?? ShelfPane(), tab: state.tab, watchlist: state.watchlist)
        let status = state.notice.map { notice in state.watchlist.isSyncing ? notice + " · syncing…" : notice }
            ?? (searching ? "type words of a title or of a cast, or filters: genre:drama runtime:80-120 votes:1000 rating:70 year:1990-1999" : listStatus)
        return [title(state)] + body + [statusLine(status, live: state.live), styled(keyLine(state), .dim)]
    }

    /// The status, with the live feed's state at its right end when there is room for both: the
    /// feed's state takes what the status leaves, and at least ``liveColumns`` (the state and its
    /// wait), the status the rest.
    private func statusLine(_ status: String, live: String?) -> String {
        guard let live else { return styled(status, .bold) }
        let wanted = max(min(DisplayWidth.of(live), Self.liveColumns), width - DisplayWidth.of(status) - 3)
        let room = min(width - Self.minimumWidth / 2 - 2, wanted)
        let right = " " + DisplayWidth.truncate(live, to: room) + " "
        let rightWidth = DisplayWidth.of(right)
        guard rightWidth + Self.minimumWidth / 2 <= width else { return styled(status, .bold) }
        return styled(DisplayWidth.fit(status, to: width - rightWidth) + right, .bold, padded: false)
    }

    // MARK: Parts

    /// The segments, with the API and the year at the right: every segment by its title when
    /// they fit with room to spare, else by its short title, else the selected one alone with
    /// its place (`‹ Diary 4/6 ›`).
    private func title(_ state: BrowserState) -> String {
        let segmentsWidth: ((BrowserTab) -> String) -> Int = { name in
            1 + BrowserTab.allCases.map { DisplayWidth.of(name($0)) + 2 }.reduce(0, +) + BrowserTab.allCases.count - 1
        }
        let left: String
        let leftWidth: Int
        if let name: (BrowserTab) -> String = [{ $0.title }, { $0.shortTitle }].first(where: { segmentsWidth($0) + 12 <= width }) {
            let segments = BrowserTab.allCases.map { tab in
                tab == state.tab ? (color ? Style.reverse.wrap(" \(name(tab)) ") : "[\(name(tab))]") : " \(name(tab)) "
            }
            left = " " + segments.joined(separator: " ")
            leftWidth = segmentsWidth(name)
        } else {
            let place = " \(state.tab.rawValue + 1)/\(BrowserTab.allCases.count)"
            left = " ‹ " + (color ? Style.reverse.wrap(" \(state.tab.title) ") : "[\(state.tab.title)]") + place + " ›"
            leftWidth = 3 + DisplayWidth.of(state.tab.title) + 2 + DisplayWidth.of(place) + 2
        }
        let yearText = state.yearDraft.map { "Year: \($0)_" } ?? "Year \(state.year)"
        let room = max(0, width - leftWidth - 1)
        let named = "\(TerminalText.safe(state.apiName)) · \(yearText) "
        // The year matters more than the API's name: it stays when both do not fit.
        let right = DisplayWidth.truncate(DisplayWidth.of(named) <= room ? named : yearText + " ", to: room)
        let gap = max(1, width - leftWidth - DisplayWidth.of(right))
        return left + String(repeating: " ", count: gap) + (state.yearDraft != nil ? styled(right, .bold, padded: false) : right)
    }

    /// The columns the width allows, narrowest first: rank and title always, then rating,
    /// release date and grossing as the terminal widens.
    var columns: [Column] {
        let shown: [Column: Bool] = [.rating: width >= 60, .released: width >= 80, .grossing: width >= 100]
        return [.rank, .title, .released, .grossing, .rating].filter { shown[$0] ?? true }
    }

    private func titleWidth(_ columns: [Column], ranks: Int) -> Int {
        width - 3 - columns.filter { $0 != .title }.map { $0.width(ranks: ranks) + 2 }.reduce(0, +)
    }

    /// The table's heading, its rank column as wide as the highest of `ranks` ranks.
    private func header(ranks: Int) -> String {
        let columns = self.columns
        let cells = columns.map { column in
            DisplayWidth.fit(column.heading, to: column == .title ? titleWidth(columns, ranks: ranks) : column.width(ranks: ranks), alignRight: column.alignsRight)
        }
        return styled("   " + cells.joined(separator: "  "), .bold)
    }

    /// The results of a search: nothing before a word is typed, else the table.
    private func searchLines(_ search: SearchPane, watchlist: WatchlistPane) -> [String] {
        guard !search.text.trimmingCharacters(in: .whitespaces).isEmpty else { return [] }
        return tableLines(search.results, watchlist: watchlist) + (search.isLoadingMore ? [plain("   Loading more…")] : [])
    }

    /// The mark at the right end of the title of a movie on the watchlist.
    static let watchlistMark = "✓"

    /// The table's rows, each movie on the watchlist marked at the right end of its title.
    private func tableLines(_ pane: ListPane, watchlist: WatchlistPane) -> [String] {
        guard !pane.movies.isEmpty else {
            let text = pane.answer.isRefreshing ? "   Loading…" : "   No movies."
            return [plain(text)]
        }
        let columns = self.columns
        let ranks = pane.movies.count
        let titleWidth = titleWidth(columns, ranks: ranks)
        var lines: [String] = []
        let rows = pane.movies.indices.dropFirst(pane.firstVisible).prefix(visibleRows)
        for index in rows {
            let movie = pane.movies[index]
            let cells = columns.map { column in
                guard column == .title, watchlist.marks(movie.id) else {
                    return DisplayWidth.fit(column.text(for: movie, rank: index + 1), to: column == .title ? titleWidth : column.width(ranks: ranks), alignRight: column.alignsRight)
                }
                return DisplayWidth.fit(column.text(for: movie, rank: index + 1), to: titleWidth - 2) + " " + Self.watchlistMark
            }
            let selected = index == pane.selection
            let marker = selected ? "›" : " "
            let row = " \(marker) " + cells.joined(separator: "  ")
            lines.append(selected && color ? Style.reverse.wrap(DisplayWidth.fit(row, to: width)) : plain(row))
            let cast = movie.cast.map { TerminalText.safe($0.name) }.joined(separator: ", ")
            lines.append(styled("   " + String(repeating: " ", count: Column.rank.width(ranks: ranks) + 2) + cast, .dim))
        }
        return lines
    }

    /// The Watchlist segment: each movie with its note, pending changes marked.
    private func watchlistLines(_ pane: WatchlistPane) -> [String] {
        if let signIn = pane.signIn { return signInLines(signIn) }
        let idWidth = max(2, pane.lines.map { String($0.movieID).count }.max() ?? 2)
        let markWidth = 18
        let titleWidth = max(10, (width - 3 - idWidth - 2 - markWidth) * 3 / 5)
        let header = styled("   " + DisplayWidth.fit("Id", to: idWidth, alignRight: true) + "  " + DisplayWidth.fit("Movie", to: titleWidth) + "  Note", .bold)
        guard !pane.lines.isEmpty else {
            let text = pane.isLoaded ? "   Nothing on the watchlist: press w on a movie to add it." : "   Loading…"
            return [header, plain(text)]
        }
        var lines = [header]
        for index in pane.lines.indices.dropFirst(pane.firstVisible).prefix(visibleRows * 2) {
            let line = pane.lines[index]
            let title = line.titleAndYear.map(TerminalText.safe) ?? "movie \(line.movieID) (title not fetched)"
            let mark = switch line.pending {
            case .adding?: "  [pending]"
            case .removing?: "  [removal pending]"
            case nil: ""
            }
            let selected = index == pane.selection
            let row = " \(selected ? "›" : " ") " + DisplayWidth.fit(String(line.movieID), to: idWidth, alignRight: true) + "  "
                + DisplayWidth.fit(title, to: titleWidth) + "  " + TerminalText.safe(line.note) + mark
            lines.append(selected && color ? Style.reverse.wrap(DisplayWidth.fit(row, to: width)) : plain(row))
        }
        return lines
    }

    /// A shelf segment: the ratings with their scores, the diary's viewings by day, or each list
    /// followed by its movies; pending changes marked.
    private func shelfLines(_ pane: ShelfPane, tab: BrowserTab, loaded: Bool) -> [String] {
        guard !pane.rows.isEmpty else {
            let empty = switch tab {
            case .ratings: "   Nothing rated yet: 'marquee rate ID SCORE' rates a movie."
            case .diary: "   Nothing logged yet: 'marquee watched ID' logs a viewing."
            default: "   No lists yet: 'marquee list create NAME' makes one."
            }
            return [plain(loaded ? empty : "   Loading…")]
        }
        var lines: [String] = []
        for index in pane.rows.indices.dropFirst(pane.firstVisible).prefix(visibleRows * 2) {
            let row = pane.rows[index]
            let title = row.title.map(TerminalText.safe) ?? row.movieID.map { "movie \($0) (title not fetched)" } ?? ""
            let lead: String
            var text: String
            switch row.kind {
            case let .rating(score):
                lead = DisplayWidth.fit(Ratings.text(score), to: 13)
                text = title
            case let .viewing(watchedOn, rewatch):
                lead = watchedOn
                text = title + (rewatch ? "  (rewatch)" : "")
            case let .list(movies):
                lead = "▸"
                text = title + " · " + NumberText.counted(movies, "movie")
            case let .listItem(place):
                lead = "  " + DisplayWidth.fit("\(place).", to: 5, alignRight: true)
                text = title
            }
            if !row.note.isEmpty { text += "  " + TerminalText.safe(row.note) }
            if row.isPending { text += "  [pending]" }
            let selected = index == pane.selection
            let drawn = " \(selected ? "›" : " ") " + lead + "  " + text
            if selected && color {
                lines.append(Style.reverse.wrap(DisplayWidth.fit(drawn, to: width)))
            } else if case .list = row.kind {
                lines.append(styled(drawn, .bold))
            } else {
                lines.append(plain(drawn))
            }
        }
        return lines
    }

    static func shelfStatus(_ pane: ShelfPane, tab: BrowserTab, watchlist: WatchlistPane) -> String {
        if case .ended = watchlist.signIn { return "not signed in: press r for a new code" }
        if watchlist.signIn != nil { return "signing in…" }
        if watchlist.isSyncing { return "syncing the shelf…" }
        var text = switch tab {
        case .ratings: NumberText.counted(pane.rows.count, "movie") + " rated"
        case .diary: NumberText.counted(pane.rows.count, "viewing") + " in the diary"
        default: NumberText.counted(pane.rows.filter { if case .list = $0.kind { true } else { false } }.count, "list")
        }
        if pane.pendingCount > 0 { text += ", \(pane.pendingCount) pending" }
        if let status = watchlist.status { text += " · " + status }
        return text
    }

    /// The sign-in screen: where to go, the code to enter, and that the browser waits.
    private func signInLines(_ signIn: BrowserSignIn) -> [String] {
        switch signIn {
        case let .ended(reason):
            return [
                styled("   Sign in to see your watchlist", .bold), plain(""),
                plain("   " + TerminalText.safe(reason)),
                styled("   Press r for a new code", .bold),
                plain("   (or run 'marquee login' in another terminal: this screen takes that sign-in as it is made)"),
            ]
        case .starting:
            return [styled("   Sign in to see your watchlist", .bold), plain(""), plain("   Asking the server for a code…")]
        case let .code(page, userCode, complete):
            var lines = [
                styled("   Sign in to see your watchlist", .bold), plain(""),
                plain("   Open " + TerminalText.safe(page)),
                styled("   and enter the code " + TerminalText.safe(userCode), .bold),
            ]
            if let complete { lines.append(plain("   (or open " + TerminalText.safe(complete) + ")")) }
            lines += [plain(""), plain("   Waiting for the approval… the list appears here once you approve.")]
            return lines
        }
    }

    /// Whether the open movie is on the watchlist, and what `w` does to it.
    static func watchlistLine(_ movieID: Int, _ pane: WatchlistPane) -> String {
        if pane.signIn != nil { return "sign in to see whether it is on yours (w)" }
        return pane.marks(movieID) ? "\(watchlistMark) on your watchlist (w removes it)" : "not on your watchlist (w adds it)"
    }

    static func watchlistStatus(_ pane: WatchlistPane) -> String {
        if case .ended = pane.signIn { return "not signed in: press r for a new code" }
        if pane.signIn != nil { return "signing in…" }
        if pane.isSyncing { return "syncing the watchlist…" }
        let count = pane.lines.filter { $0.pending != .removing }.count
        var text = NumberText.counted(count, "movie") + " on the watchlist"
        if pane.pendingCount > 0 { text += ", \(pane.pendingCount) pending" }
        if let status = pane.status { text += " · " + status }
        return text
    }

    private func detailLines(_ detail: DetailPane, watchlist: WatchlistPane) -> [String] {
        let movie = detail.movie
        var lines = [
            styled(" \(TerminalText.safe(movie.name)) (\(movie.year))", .bold),
            plain(""),
            plain(" Released  \(CalendarDate.string(from: movie.releaseDate))"),
            plain(" Grossing  $\(NumberText.grouped(movie.grossing))"),
            plain(" Rating    \(NumberText.rating(movie.rating))"),
            plain(" Id        \(movie.id)  (marquee movie \(movie.id))"),
            plain(" Watchlist " + Self.watchlistLine(movie.id, watchlist)),
        ]
        if watchlist.signIn == nil, let score = watchlist.ratings[movie.id] { lines.append(plain(" Yours     " + Ratings.text(score))) }
        for (label, text) in MovieDetailsLines.lines(movie.details) {
            lines.append(plain(" " + label.padding(toLength: 10, withPad: " ", startingAt: 0) + text))
        }
        lines += [
            plain(""),
            styled(" Cast", .bold),
        ]
        let cast = movie.cast.isEmpty ? ["   (none listed)"] : movie.cast.enumerated().map { "   \($0.offset + 1). \(TerminalText.safe($0.element.name))" }
        lines += cast.dropFirst(min(detail.firstVisible, max(0, cast.count - 1))).map { plain($0) }
        return lines
    }

    /// The keys of this screen, in their order, as many as fit: the least needed go first
    /// (`q quit` and `? keys` stay, and `?` lists them all).
    private func keyLine(_ state: BrowserState) -> String {
        if state.yearDraft != nil { return Self.fitting(["type a year", "Enter confirm", "Esc cancel"], leastNeededFirst: [0], width: width) }
        if state.showsHelp { return "any key closes the help" }
        if let detail = state.detail {
            let w = state.watchlist.key(for: detail.movie.id)
            return Self.fitting(["Esc back", "↑/↓ scroll", w, "r refresh", "? keys", "q quit"], leastNeededFirst: [3, 1, 2], width: width)
        }
        if state.search != nil {
            return Self.fitting(["type to search", "↑/↓ move", "Enter open", "Esc back to the lists"], leastNeededFirst: [1, 2], width: width)
        }
        if state.tab.isShelf, state.watchlist.signIn == nil {
            let w = state.shelf[state.tab]?.selectedRow?.movieID.map { state.watchlist.key(for: $0) } ?? "w watchlist"
            return Self.fitting(
                ["←/→ switch", "↑/↓ move", "Enter open", w, "r sync", "? keys", "q quit"],
                leastNeededFirst: [4, 2, 1, 3, 0], width: width
            )
        }
        if state.tab.list == nil {
            switch state.watchlist.signIn {
            case .ended?:
                return Self.fitting(["←/→ switch", "r new code", "? keys", "q quit"], leastNeededFirst: [0], width: width)
            case .some:
                return Self.fitting(["←/→ switch", "? keys", "q quit"], leastNeededFirst: [0], width: width)
            case nil:
                let w = state.watchlist.selectedLine.map { state.watchlist.key(for: $0.movieID) } ?? "w remove"
                return Self.fitting(
                    ["←/→ switch", "↑/↓ move", "Enter open", w, "r sync", "? keys", "q quit"],
                    leastNeededFirst: [4, 2, 1, 3, 0], width: width
                )
            }
        }
        let w = state.watchlist.key(for: state.pane.selectedMovie?.id)
        return Self.fitting(
            ["←/→ switch", "↑/↓ move", "Enter open", "[ ] year", "/ search", w, "r refresh", "? keys", "q quit"],
            leastNeededFirst: [6, 3, 5, 2, 1, 4, 0], width: width
        )
    }

    /// `keys` joined by ` · `, leaving out those at `leastNeededFirst` one by one until the line fits `width`.
    static func fitting(_ keys: [String], leastNeededFirst: [Int], width: Int) -> String {
        var dropped: Set<Int> = []
        var line = keys.joined(separator: " · ")
        for index in leastNeededFirst where DisplayWidth.of(line) > width {
            dropped.insert(index)
            line = keys.indices.filter { !dropped.contains($0) }.map { keys[$0] }.joined(separator: " · ")
        }
        return line
    }

    /// The request for a bigger terminal, in the words that fit `width`.
    static func sizeMessage(fitting width: Int) -> String {
        let size = "\(minimumWidth)×\(minimumHeight)"
        let wordings = ["Make the terminal at least \(size).", "Terminal too small: need \(size)", "Too small: \(size)", "Min \(size)", size]
        return wordings.first { DisplayWidth.of($0) <= width } ?? DisplayWidth.fit(size, to: width)
    }

    static let helpLines = [
        " Keys",
        "",
        "   ← → Tab        switch between the segments; 1 to 6 go straight to one",
        "   ↑ ↓            move the selection",
        "   PgUp PgDn      move a page",
        "   Home End       first and last movie",
        "   Enter          open the selected movie: details and whole cast",
        "   Esc            back to the list",
        "   [ ]            previous and next year",
        "   y              type a year",
        "   /              search the whole catalogue (Esc: back to the lists); filters among the words:",
        "                  genre:drama genre:sci-fi runtime:80-120 votes:1000 rating:75 year:1990-1999",
        "   w              add the selected movie to the watchlist, or remove it (✓: on it)",
        "   r              ask the network again (on your segments: sync them)",
        "   ?              this help",
        "   q Ctrl-C       quit",
    ]

    // MARK: Styles

    enum Style: String {
        case bold = "1", dim = "2", reverse = "7"

        func wrap(_ text: String) -> String { "\u{1B}[\(rawValue)m\(text)\u{1B}[0m" }
    }

    private func plain(_ text: String) -> String {
        DisplayWidth.fit(text, to: width)
    }

    private func styled(_ text: String, _ style: Style, padded: Bool = true) -> String {
        let fitted = padded ? DisplayWidth.fit(text, to: width) : text
        return color ? style.wrap(fitted) : fitted
    }
}

/// A table column: its heading, width and the text of a movie's cell.
enum Column: Sendable, Hashable {
    case rank, title, released, grossing, rating

    var heading: String {
        switch self {
        case .rank: "#"
        case .title: "Movie"
        case .released: "Released"
        case .grossing: "Grossing"
        case .rating: "Rating"
        }
    }

    /// The width of a fixed column in a table of `ranks` rows (the rank column holds the
    /// highest); the title takes what is left.
    func width(ranks: Int) -> Int {
        switch self {
        case .rank: max(2, String(ranks).count)
        case .title: 0
        case .released: 10
        case .grossing: 14
        case .rating: 6
        }
    }

    var alignsRight: Bool { self == .rank || self == .grossing || self == .rating }

    func text(for movie: Movie, rank: Int) -> String {
        switch self {
        case .rank: "\(rank)"
        case .title: "\(TerminalText.safe(movie.name)) (\(movie.year))"
        case .released: CalendarDate.string(from: movie.releaseDate)
        case .grossing: "$" + NumberText.grouped(movie.grossing)
        case .rating: NumberText.rating(movie.rating)
        }
    }
}
