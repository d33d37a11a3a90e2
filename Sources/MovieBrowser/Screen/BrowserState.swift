import Foundation
import MovieStore
import Movies
import TextFormatting

/// Everything `marquee browse` shows, as a plain value: the segment, the year, each segment's
/// table, the open movie, the help and the year being typed. Keys and answers change it; the
/// effects it returns are what the session must start or stop. It never does I/O, so every
/// screen can be built and checked in a test.
public struct BrowserState: Sendable, Equatable {
    /// The API on screen, for the title.
    public var apiName: String
    public var year: Int
    public var tab: BrowserTab = .topGrossing
    public var panes: [BrowserTab: ListPane] = [:]
    /// The movie opened with Enter; Esc closes it.
    public var detail: DetailPane?
    public var showsHelp = false
    /// The year being typed after `y`, until Enter or Esc.
    public var yearDraft: String?
    /// Why the typed year was refused.
    public var notice: String?
    /// The search opened with `/`, until Esc.
    public var search: SearchPane?
    /// The Watchlist segment, loaded at start so that `w` knows what is on it.
    public var watchlist = WatchlistPane()
    /// The Ratings, Diary and Lists segments, read with the watchlist.
    public var shelf: [BrowserTab: ShelfPane] = [:]
    /// The movie asked for from a shelf segment, whose page opens when it arrives.
    public var opening: Int?
    /// The live feed's state (`live`, `reconnecting in 4 s`, or why not); `nil` before the feed
    /// has said anything (and when nothing is followed).
    public var live: String?
    /// Why this machine's store keeps nothing this run, shown on every screen; `nil` when it keeps
    /// what it is given.
    public var storeProblem: String?

    /// How far apart two `fetchedAt` dates of one answer can be: the store keeps them as seconds
    /// since 1970 in a double, so the network's answer read back from it may differ from the one
    /// on screen by a rounding, either way.
    static let sameAnswerTolerance: TimeInterval = 0.001

    public init(apiName: String, year: Int) {
        self.apiName = apiName
        self.year = year
    }

    public var pane: ListPane { panes[tab] ?? ListPane() }

    /// The first load of the screen.
    public mutating func start() -> [BrowserEffect] {
        beginLoading(tab) + (tab.list == nil ? [] : [.loadWatchlist])
    }

    // MARK: Keys

    /// Applies `key`; `visibleRows` is how many movies the table shows (for PgUp and PgDn).
    public mutating func handle(_ key: Key, visibleRows: Int) -> [BrowserEffect] {
        notice = nil
        if key == .interrupt { return [.quit] }
        if showsHelp {
            showsHelp = false
            return key == .character("q") ? [.quit] : []
        }
        if yearDraft != nil { return handleYearEntry(key) }
        if detail != nil { return handleDetail(key, visibleRows: visibleRows) }
        if search != nil { return handleSearch(key, visibleRows: visibleRows) }
        if tab == .watchlist, let effects = handleWatchlist(key, visibleRows: visibleRows) { return effects }
        if tab.isShelf, let effects = handleShelf(key, visibleRows: visibleRows) { return effects }
        var pane = self.pane
        defer { panes[tab] = pane }
        switch key {
        case .up: pane.move(by: -1)
        case .down: pane.move(by: 1)
        case .pageUp: pane.move(by: -max(1, visibleRows))
        case .pageDown: pane.move(by: max(1, visibleRows))
        case .home: pane.select(0)
        case .end: pane.select(pane.movies.count - 1)
        case .left, .right, .tab, .backTab:
            panes[tab] = pane
            tab = key == .left || key == .backTab ? tab.previous : tab.next
            opening = nil
            pane = self.pane
            return [.cancelList] + beginLoading(tab, into: &pane)
        case let .character(digit) where BrowserTab(digit: digit) != nil:
            guard let chosen = BrowserTab(digit: digit), chosen != tab else { return [] }
            panes[tab] = pane
            tab = chosen
            opening = nil
            pane = self.pane
            return [.cancelList] + beginLoading(tab, into: &pane)
        case .character("w"):
            guard let movie = pane.selectedMovie else { return [] }
            return toggleWatchlist(movie.id, name: movie.name)
        case .enter:
            guard let movie = pane.selectedMovie else { return [] }
            detail = DetailPane(movie: movie, answer: Answer(source: pane.answer.source, fetchedAt: pane.answer.fetchedAt, isRefreshing: true))
            return [.loadMovie(id: movie.id)]
        case .character("r"):
            return [.cancelList] + beginLoading(tab, into: &pane)
        case .character("["), .character("]"):
            let next = year + (key == .character("[") ? -1 : 1)
            guard MovieList.years.contains(next) else { return [] }
            panes[tab] = pane
            let effects = changeYear(to: next)
            pane = self.pane
            return effects
        case .character("y"):
            yearDraft = ""
        case .character("?"):
            showsHelp = true
        case .character("/"):
            search = SearchPane()
        case .character("q"), .escape:
            return key == .escape ? [] : [.quit]
        default:
            break
        }
        pane.reveal(visibleRows: visibleRows)
        return []
    }

    private mutating func handleDetail(_ key: Key, visibleRows: Int) -> [BrowserEffect] {
        guard var detail else { return [] }
        switch key {
        case .escape, .left, .backspace:
            self.detail = nil
            return [.cancelMovie]
        case .up: detail.firstVisible = max(0, detail.firstVisible - 1)
        case .down: detail.firstVisible = min(detail.lastFirstVisible, detail.firstVisible + 1)
        case .pageUp: detail.firstVisible = max(0, detail.firstVisible - visibleRows)
        case .pageDown: detail.firstVisible = min(detail.lastFirstVisible, detail.firstVisible + visibleRows)
        case .home: detail.firstVisible = 0
        case .character("r"):
            detail.answer.isRefreshing = true
            detail.answer.failure = nil
            self.detail = detail
            return [.cancelMovie, .loadMovie(id: detail.movie.id)]
        case .character("w"):
            return toggleWatchlist(detail.movie.id, name: detail.movie.name)
        case .character("?"): showsHelp = true
        case .character("q"): return [.quit]
        default: break
        }
        self.detail = detail
        return []
    }

    /// The keys of the Watchlist segment; `nil` for those it shares with the lists (switching
    /// segments, years, help, quit).
    private mutating func handleWatchlist(_ key: Key, visibleRows: Int) -> [BrowserEffect]? {
        switch key {
        case .up: watchlist.move(by: -1)
        case .down: watchlist.move(by: 1)
        case .pageUp: watchlist.move(by: -max(1, visibleRows * 2))
        case .pageDown: watchlist.move(by: max(1, visibleRows * 2))
        case .home: watchlist.select(0)
        case .end: watchlist.select(watchlist.lines.count - 1)
        case .enter:
            guard let line = watchlist.selectedLine, let movie = line.movie else {
                if watchlist.selectedLine != nil { notice = "this movie is not stored here yet: refresh with r" }
                return []
            }
            detail = DetailPane(movie: movie, answer: Answer(source: .store, fetchedAt: nil, isRefreshing: true))
            return [.loadMovie(id: movie.id)]
        case .character("w"):
            guard let line = watchlist.selectedLine else { return [] }
            return toggleWatchlist(line.movieID, name: line.movie?.name ?? line.title ?? "movie \(line.movieID)")
        case .character("r"):
            watchlist.isSyncing = true
            return [.syncWatchlist]
        default:
            return nil
        }
        // A watchlist line takes one screen line, a list's movie two (title and cast).
        watchlist.reveal(visibleLines: visibleRows * 2)
        return []
    }

    /// The keys of a shelf segment that differ from the lists'; `nil` for those they share.
    private mutating func handleShelf(_ key: Key, visibleRows: Int) -> [BrowserEffect]? {
        var pane = shelf[tab] ?? ShelfPane()
        defer { shelf[tab] = pane }
        switch key {
        case .up: pane.move(by: -1)
        case .down: pane.move(by: 1)
        case .pageUp: pane.move(by: -max(1, visibleRows * 2))
        case .pageDown: pane.move(by: max(1, visibleRows * 2))
        case .home: pane.select(0)
        case .end: pane.select(pane.rows.count - 1)
        case .enter:
            guard let movieID = pane.selectedRow?.movieID else { return [] }
            opening = movieID
            notice = "opening \(pane.selectedRow?.title.map(TerminalText.safe) ?? "movie \(movieID)")…"
            return [.cancelMovie, .loadMovie(id: movieID)]
        case .character("w"):
            guard let row = pane.selectedRow, let movieID = row.movieID else { return [] }
            return toggleWatchlist(movieID, name: row.title ?? "movie \(movieID)")
        case .character("r"):
            watchlist.isSyncing = true
            return [.syncWatchlist]
        default:
            return nil
        }
        pane.reveal(visibleLines: visibleRows * 2)
        return []
    }

    /// Adds the movie to the watchlist, or removes it when it is on it: written here at once, then sent.
    /// While a person signs in, nothing is changed: the list shown is no one's, so the change
    /// could not be decided on it. The key leads to the sign-in screen instead.
    private mutating func toggleWatchlist(_ movieID: Int, name: String) -> [BrowserEffect] {
        if watchlist.signIn != nil {
            var effects: [BrowserEffect] = detail == nil ? [] : [.cancelMovie]
            detail = nil
            if tab != .watchlist {
                tab = .watchlist
                effects += [.cancelList]
            }
            notice = "sign in first: the watchlist is a person's (nothing was changed)"
            return effects
        }
        let adding = !watchlist.contains(movieID)
        notice = adding ? "added \(TerminalText.safe(name)) to the watchlist" : "removed \(TerminalText.safe(name)) from the watchlist"
        watchlist.isSyncing = true
        return [.changeWatchlist(movieID: movieID, add: adding)]
    }

    private mutating func handleSearch(_ key: Key, visibleRows: Int) -> [BrowserEffect] {
        guard var search else { return [] }
        defer { if self.search != nil { self.search = search } }
        switch key {
        case .escape:
            self.search = nil
            return [.cancelSearch]
        case let .character(character) where !character.isNewline:
            search.text.append(character)
            return textChanged(&search)
        case .backspace:
            guard !search.text.isEmpty else { return [] }
            search.text.removeLast()
            return textChanged(&search)
        case .enter:
            guard let movie = search.results.selectedMovie else { return [] }
            detail = DetailPane(movie: movie, answer: Answer(source: search.results.answer.source, fetchedAt: search.results.answer.fetchedAt, isRefreshing: true))
            return [.loadMovie(id: movie.id)]
        case .up: search.results.move(by: -1)
        case .down: search.results.move(by: 1)
        case .pageUp: search.results.move(by: -max(1, visibleRows))
        case .pageDown: search.results.move(by: max(1, visibleRows))
        case .home: search.results.select(0)
        case .end: search.results.select(search.results.movies.count - 1)
        default: return []
        }
        search.results.reveal(visibleRows: visibleRows)
        if search.results.selection == search.results.movies.count - 1, let cursor = search.next, !search.isLoadingMore {
            search.isLoadingMore = true
            return [.searchMore(search.text, cursor: cursor)]
        }
        return []
    }

    /// The effect of new words: a search (the session waits for typing to pause), or none for no words.
    private func textChanged(_ search: inout SearchPane) -> [BrowserEffect] {
        search.next = nil
        search.isLoadingMore = false
        guard !search.text.trimmingCharacters(in: .whitespaces).isEmpty else {
            search.results = ListPane()
            return [.cancelSearch]
        }
        search.results.answer.isRefreshing = true
        search.results.answer.failure = nil
        return [.search(search.text)]
    }

    private mutating func handleYearEntry(_ key: Key) -> [BrowserEffect] {
        guard let draft = yearDraft else { return [] }
        switch key {
        case let .character(character) where character.isASCII && character.isNumber:
            if draft.count < 4 { yearDraft = draft + String(character) }
        case .backspace:
            yearDraft = String(draft.dropLast())
        case .escape:
            yearDraft = nil
        case .enter:
            yearDraft = nil
            guard let year = Int(draft), MovieList.years.contains(year) else {
                notice = "a year is a number from \(MovieList.years.lowerBound) to \(MovieList.years.upperBound)"
                return []
            }
            return changeYear(to: year)
        default:
            break
        }
        return []
    }

    private mutating func changeYear(to newYear: Int) -> [BrowserEffect] {
        guard newYear != year else { return [] }
        year = newYear
        panes = [:]
        return [.cancelList] + beginLoading(tab)
    }

    private mutating func beginLoading(_ tab: BrowserTab) -> [BrowserEffect] {
        var pane = panes[tab] ?? ListPane()
        let effects = beginLoading(tab, into: &pane)
        panes[tab] = pane
        return effects
    }

    private func beginLoading(_ tab: BrowserTab, into pane: inout ListPane) -> [BrowserEffect] {
        guard tab.list != nil else { return [.loadWatchlist] }
        pane.answer.isRefreshing = true
        pane.answer.failure = nil
        return [.loadList(tab, year: year)]
    }

    /// The catalogue changed on the server: what is on screen of it is asked for again (the
    /// list, the open movie, the search); the other segment's list is asked for when shown.
    public mutating func catalogChanged() -> [BrowserEffect] {
        var effects: [BrowserEffect] = []
        if tab.list != nil { effects += [.cancelList] + beginLoading(tab) }
        if var detail {
            detail.answer.isRefreshing = true
            detail.answer.failure = nil
            self.detail = detail
            effects += [.cancelMovie, .loadMovie(id: detail.movie.id)]
        }
        if var search, !search.text.trimmingCharacters(in: .whitespaces).isEmpty {
            effects += textChanged(&search)
            self.search = search
        }
        return effects
    }

    // MARK: Answers

    /// Applies what a load or the store's observation delivered. Answers for another year, or
    /// for a movie no longer open, are dropped.
    public mutating func apply(_ update: BrowserUpdate) {
        switch update {
        case let .listAnswer(tab, year, movies, answer):
            guard year == self.year else { return }
            var pane = panes[tab] ?? ListPane()
            pane.replaceMovies(with: movies)
            pane.answer.source = answer.source
            pane.answer.fetchedAt = answer.fetchedAt
            pane.answer.failure = answer.failure
            if answer.source == .network { pane.answer.isRefreshing = false }
            panes[tab] = pane
        case let .listFinished(tab, year, failure):
            guard year == self.year, var pane = panes[tab] else { return }
            pane.answer.isRefreshing = false
            if let failure { pane.answer.failure = failure }
            panes[tab] = pane
        case let .listStored(tab, year, movies, fetchedAt):
            guard year == self.year else { return }
            var pane = panes[tab] ?? ListPane()
            if let shown = pane.answer.fetchedAt, fetchedAt.timeIntervalSince(shown) < Self.sameAnswerTolerance { return }
            pane.replaceMovies(with: movies)
            pane.answer.source = .store
            pane.answer.fetchedAt = fetchedAt
            pane.answer.failure = nil
            panes[tab] = pane
        case let .movieAnswer(id, movie, answer):
            if detail == nil, opening == id {
                opening = nil
                notice = nil
                detail = DetailPane(movie: movie, answer: answer)
            }
            guard var detail, detail.movie.id == id else { return }
            detail.movie = movie
            detail.answer.source = answer.source
            detail.answer.fetchedAt = answer.fetchedAt
            detail.answer.failure = answer.failure
            if answer.source == .network { detail.answer.isRefreshing = false }
            self.detail = detail
        case let .movieFinished(id, failure):
            if detail == nil, opening == id {
                opening = nil
                notice = "the movie could not be opened: " + (failure ?? "the API has no such movie")
            }
            guard var detail, detail.movie.id == id else { return }
            detail.answer.isRefreshing = false
            if let failure { detail.answer.failure = failure }
            self.detail = detail
        case let .searchAnswer(text, movies, next, answer, appending):
            guard var search, search.text == text else { return }
            if appending {
                search.results.movies += movies
                search.isLoadingMore = false
            } else {
                search.results.replaceMovies(with: movies)
                search.results.select(0)
                search.results.firstVisible = 0
                search.results.answer = answer
            }
            search.results.answer.isRefreshing = false
            search.next = next
            self.search = search
        case let .watchlistShown(view):
            watchlist.show(view)
            for tab in BrowserTab.allCases where tab.isShelf {
                shelf[tab, default: ShelfPane()].show(ShelfPane.rows(of: tab, in: view.shelf))
            }
        case let .watchlistSynced(status):
            watchlist.isSyncing = false
            watchlist.status = status
        case let .watchlistSignIn(signIn):
            watchlist.signIn = signIn
        case let .watchlistRefused(reason):
            watchlist.isSyncing = false
            notice = reason
        case let .liveStatus(status):
            live = status
        case let .searchFailed(text, failure):
            guard var search, search.text == text else { return }
            search.results.answer.isRefreshing = false
            search.isLoadingMore = false
            search.results.answer.failure = failure
            self.search = search
        }
    }
}

/// What the session must do after a key: the state itself never starts anything.
public enum BrowserEffect: Sendable, Equatable {
    /// Run the policy for `tab`'s list of `year`, and observe the stored list.
    case loadList(BrowserTab, year: Int)
    /// Stop the list load in flight, if any.
    case cancelList
    case loadMovie(id: Int)
    case cancelMovie
    /// Search for these words once typing pauses, replacing the results.
    case search(String)
    /// Ask for the page after `cursor` of the search for these words, added to the results.
    case searchMore(String, cursor: String)
    /// Stop the search in flight, if any.
    case cancelSearch
    /// Show the stored watchlist, then sync it.
    case loadWatchlist
    /// Write the change to the outbox, show the list, then sync it.
    case changeWatchlist(movieID: Int, add: Bool)
    /// Send the pending changes and fetch the server's list.
    case syncWatchlist
    case quit
}

/// What a load or the store's observation delivered to the screen.
public enum BrowserUpdate: Sendable, Equatable {
    /// One snapshot of a list call; `answer` carries its source, age and network failure.
    case listAnswer(BrowserTab, year: Int, movies: [Movie], answer: Answer)
    /// A list call ended; `failure` when it ended with an error.
    case listFinished(BrowserTab, year: Int, failure: String?)
    /// The store holds a list, now or after a change made by any process.
    case listStored(BrowserTab, year: Int, movies: [Movie], fetchedAt: Date)
    case movieAnswer(id: Int, movie: Movie, answer: Answer)
    case movieFinished(id: Int, failure: String?)
    /// A search's answer for `text`: its first page, or one more (`appending`).
    case searchAnswer(text: String, movies: [Movie], next: String?, answer: Answer, appending: Bool)
    case searchFailed(text: String, failure: String)
    /// The watchlist as this machine sees it, after a change or a sync.
    case watchlistShown(WatchlistView)
    /// A sync ended: `status` says why it could not finish, or where the list is kept.
    case watchlistSynced(status: String?)
    /// The sign-in screen to show in the Watchlist segment; nil once it is done with.
    case watchlistSignIn(BrowserSignIn?)
    /// The change asked for was not made, for this reason (shown in place of what it said).
    case watchlistRefused(String)
    /// The live feed's state for the status line; `nil` while a new feed has said nothing yet.
    case liveStatus(String?)
}
