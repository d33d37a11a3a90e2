import MovieBrowser
import MovieContract
import Movies
import TextFormatting

/// One movie as a short text card with its whole cast.
enum MovieDetail {
    static func render(_ movie: Movie, yourRating: Int? = nil) -> String {
        var lines = [
            "\(TerminalText.safe(movie.name)) (\(movie.year))",
            "  Released  \(CalendarDate.string(from: movie.releaseDate))",
            "  Grossing  $\(NumberText.grouped(movie.grossing))",
            "  Rating    \(NumberText.rating(movie.rating))",
            "  Id        \(movie.id)",
        ]
        for (label, text) in MovieDetailsLines.lines(movie.details) {
            lines.append("  " + label.padding(toLength: 10, withPad: " ", startingAt: 0) + text)
        }
        if let yourRating { lines.append("  Yours     " + ShelfText.score(yourRating)) }
        for (index, actor) in movie.cast.enumerated() {
            lines.append((index == 0 ? "  Cast      " : "            ") + TerminalText.safe(actor.name))
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
