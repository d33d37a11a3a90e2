import Movies
import TextFormatting

/// The lines a movie's page adds for what the catalogue knows beside the original fields, each
/// labelled as the card's other lines are; none for a movie it knows nothing more of.
public enum MovieDetailsLines {
    public static func lines(_ details: MovieDetails?) -> [(label: String, text: String)] {
        guard let details else { return [] }
        var lines: [(String, String)] = []
        if let original = details.originalTitle { lines.append(("Original", TerminalText.safe(original))) }
        if let runtime = details.runtimeMinutes { lines.append(("Runtime", "\(runtime) min")) }
        if let genres = details.genres, !genres.isEmpty { lines.append(("Genres", TerminalText.safe(genres.joined(separator: ", ")))) }
        if let votes = details.votes { lines.append(("Votes", NumberText.grouped(votes) + " on IMDb")) }
        if let imdbID = details.imdbID { lines.append(("IMDb", TerminalText.safe(imdbID))) }
        return lines
    }
}
