import Foundation
import Movies
import MovieStore
import TextFormatting

/// Prints movies on standard output, as a table for people or as JSON for programs, with where
/// they came from. In JSON mode the source is part of the document, and the provenance line goes
/// to standard error when the answer is not fresh from the network.
struct MovieOutput {
    let json: Bool

    func printList(_ snapshot: AppSnapshot<[Movie]>, title: String, provenance: Provenance.Line) throws {
        if json {
            try write(MovieJSON.encode(MovieJSON.Answer(snapshot, movies: snapshot.value)))
            note(provenance)
        } else {
            write(MovieTable.render(snapshot.value, title: title, subtitle: "(\(provenance.text))"))
        }
    }

    func printSearch(_ snapshot: AppSnapshot<MovieSearchPage>, title: String, provenance: Provenance.Line, suggestion: MovieJSON.Suggestion? = nil) throws {
        if json {
            var answer = MovieJSON.Answer(snapshot, movies: snapshot.value.movies)
            answer.next = snapshot.value.next
            answer.suggestion = suggestion
            try write(MovieJSON.encode(answer))
            note(provenance)
        } else {
            write(MovieTable.render(snapshot.value.movies, title: TerminalText.safe(title), subtitle: "(\(provenance.text))", firstRank: snapshot.value.firstRank))
        }
    }

    func printMovie(_ snapshot: AppSnapshot<Movie>, provenance: Provenance.Line, yourRating: Int? = nil) throws {
        if json {
            var answer = MovieJSON.Answer(snapshot, movie: snapshot.value)
            answer.yourRating = yourRating
            try write(MovieJSON.encode(answer))
            note(provenance)
        } else {
            write(MovieDetail.render(snapshot.value, yourRating: yourRating) + "(\(TerminalText.safe(provenance.text)))\n")
        }
    }

    private func note(_ provenance: Provenance.Line) {
        guard provenance.isFromStore else { return }
        FileHandle.standardError.write(Data("marquee: note: \(TerminalText.safe(provenance.text))\n".utf8))
    }

    private func write(_ text: String) {
        TerminalOutput.write(text)
    }
}
