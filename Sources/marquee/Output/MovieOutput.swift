import Foundation
import Movies

/// Prints movies on standard output, as a table for people or as JSON for programs, with a
/// line saying where they came from. In JSON mode that line goes to standard error, and only
/// when the answer is not fresh from the network.
struct MovieOutput {
    let json: Bool

    func printList(_ movies: [Movie], title: String, provenance: Provenance.Line) throws {
        if json {
            try write(MovieJSON.encode(movies))
            note(provenance)
        } else {
            write(MovieTable.render(movies, title: title, subtitle: "(\(provenance.text))"))
        }
    }

    func printMovie(_ movie: Movie, provenance: Provenance.Line) throws {
        if json {
            try write(MovieJSON.encode(movie))
            note(provenance)
        } else {
            write(MovieDetail.render(movie) + "(\(provenance.text))\n")
        }
    }

    private func note(_ provenance: Provenance.Line) {
        guard provenance.isFromStore else { return }
        FileHandle.standardError.write(Data("marquee: note: \(provenance.text)\n".utf8))
    }

    private func write(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }
}
