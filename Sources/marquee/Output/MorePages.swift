import Movies
import TextFormatting

/// The line that says more movies match than a page shows, and how to see them.
enum MorePages {
    static func advice(for page: MovieSearchPage, embedded: Bool) -> String? {
        if let next = page.next {
            let how = embedded ? "give --all (a cursor of the embedded server lasts one run)" : "give --all, or --cursor \(TerminalText.safe(next)) for the next page"
            return "more movies match: \(how)"
        }
        guard page.hasMore else { return nil }
        return "more stored movies match: give --all to see them all (offline there is no next page to ask for)"
    }
}
