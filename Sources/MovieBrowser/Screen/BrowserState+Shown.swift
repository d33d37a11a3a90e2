import MovieStore

extension BrowserState {
    /// What the screen shows now, which the store keeps whatever its budget: the lists of both
    /// segments for the year (a key switches between them), every movie in their tables, the
    /// search's results and the open movie. The watchlist's movies are kept anyway.
    public var shown: ShownOnScreen {
        var shown = ShownOnScreen()
        for tab in BrowserTab.allCases {
            guard let list = tab.list else { continue }
            shown.lists.insert(ListQuery(list, year: year))
            shown.movieIDs.formUnion((panes[tab]?.movies ?? []).map(\.id))
        }
        shown.movieIDs.formUnion((search?.results.movies ?? []).map(\.id))
        if let detail { shown.movieIDs.insert(detail.movie.id) }
        return shown
    }
}
