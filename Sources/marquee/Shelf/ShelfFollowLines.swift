import Foundation
import MovieContract
import TextFormatting

/// What `--follow` says of each change of the shelf's kinds, with the movie's title.
enum ShelfFollowLines {
    static func rating(_ change: ShelfFollow.Change, in watchlist: AppWatchlist) async -> String? {
        guard let movieID = Ratings.movieID(change.record.key) else { return nil }
        let movie = TerminalText.safe(await WatchlistFollowTitle.of(movieID, in: watchlist).text) + ", id \(movieID)"
        guard let value = change.record.value.flatMap(Ratings.value(ofText:)) else { return "cleared the rating of \(movie)" }
        return "rated \(movie): \(ShelfText.score(value.score))"
    }

    static func diary(_ change: ShelfFollow.Change, in watchlist: AppWatchlist) async -> String? {
        let value = change.record.value.flatMap(Diary.value(ofText:))
        guard let shown = value ?? change.before.flatMap(Diary.value(ofText:)) else { return "removed a viewing from the diary" }
        let movie = TerminalText.safe(await WatchlistFollowTitle.of(shown.movieId, in: watchlist).text) + ", id \(shown.movieId)"
        guard let value else { return "removed the viewing of \(movie) on \(shown.watchedOn)" }
        var text = (change.before == nil ? "logged \(movie), watched " : "changed the viewing of \(movie): watched ") + value.watchedOn
        if value.rewatch { text += " (a rewatch)" }
        if !value.note.isEmpty { text += ", note \"\(TerminalText.safe(value.note))\"" }
        return text
    }

    static func list(_ change: ShelfFollow.Change, list id: String, in watchlist: AppWatchlist) async -> String? {
        if change.record.kind == Lists.name {
            guard change.record.key == id else { return nil }
            guard let value = change.record.value.flatMap(Lists.value(ofText:)) else { return "the list was deleted" }
            return "the list is now '\(TerminalText.safe(value.name))'" + (value.description.isEmpty ? "" : ": \(TerminalText.safe(value.description))")
        }
        guard change.record.key.hasPrefix(ShelfKeys.start(of: id)), let (_, movie) = ListItems.parts(change.record.key), let movieID = Ratings.movieID(movie) else {
            return nil
        }
        let name = TerminalText.safe(await WatchlistFollowTitle.of(movieID, in: watchlist).text) + ", id \(movieID)"
        guard let value = change.record.value.flatMap(ListItems.value(ofText:)) else { return "removed \(name)" }
        let lists = try? await PersonLists.read(watchlist)
        let place = lists.flatMap { lists in lists.lists.first { $0.id == id }.map { lists.items(of: $0) } }?.firstIndex { $0.movieID == movieID }.map { $0 + 1 }
        let at = place.map { " at \($0)" } ?? ""
        guard let before = change.before.flatMap(ListItems.value(ofText:)) else { return "added \(name)\(at)" }
        if before.position != value.position { return place.map { "moved \(name) to \($0)" } ?? "moved \(name)" }
        return "note changed: \(name), now " + (value.note.isEmpty ? "no note" : "\"\(TerminalText.safe(value.note))\"")
    }
}
