import MovieContract
import Movies
import TextFormatting

/// A ranked list of movies as a text table: one row a movie, "name (year)" with the cast below,
/// as the original app showed them, and the id that `marquee movie ID` asks for (the rank is
/// only the place in this list). Columns are measured in terminal columns, so wide characters
/// keep them aligned.
enum MovieTable {
    /// `firstRank` numbers the first row: a later page of a search goes on from the one before.
    static func render(_ movies: [Movie], title: String, subtitle: String, firstRank: Int = 1) -> String {
        let subtitle = TerminalText.safe(subtitle)
        guard !movies.isEmpty else { return "\(title): no movies.\n\(subtitle)\n" }
        let header = ["#", "Movie", "Released", "Grossing", "Rating", "Id"]
        let rows = movies.enumerated().map { index, movie in
            [
                "\(firstRank + index)",
                "\(TerminalText.safe(movie.name)) (\(movie.year))",
                CalendarDate.string(from: movie.releaseDate),
                "$" + NumberText.grouped(movie.grossing),
                NumberText.rating(movie.rating),
                "\(movie.id)",
            ]
        }
        let widths = header.indices.map { column in
            ([header] + rows).map { DisplayWidth.of($0[column]) }.max() ?? 0
        }
        let alignRight = [true, false, false, true, true, true]
        func line(_ cells: [String]) -> String {
            let padded = cells.indices.map { column in
                pad(cells[column], to: widths[column], right: alignRight[column])
            }
            return "  " + padded.joined(separator: "  ")
        }
        let castIndent = String(repeating: " ", count: 2 + widths[0] + 2)
        var output = title + "\n" + subtitle + "\n\n" + line(header) + "\n"
        for (movie, row) in zip(movies, rows) {
            output += line(row) + "\n"
            if !movie.cast.isEmpty {
                output += castIndent + movie.cast.map { TerminalText.safe($0.name) }.joined(separator: ", ") + "\n"
            }
        }
        return output
    }

    private static func pad(_ text: String, to width: Int, right: Bool) -> String {
        DisplayWidth.fit(text, to: width, alignRight: right)
    }
}
