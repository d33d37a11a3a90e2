import Foundation
import Movies

/// Prints movies on standard output, as a table for people or as JSON for programs.
struct MovieOutput {
    let json: Bool

    func printList(_ movies: [Movie], title: String) throws {
        if json {
            try write(MovieJSON.encode(movies))
        } else {
            write(MovieTable.render(movies, title: title))
        }
    }

    func printMovie(_ movie: Movie) throws {
        if json {
            try write(MovieJSON.encode(movie))
        } else {
            write(MovieDetail.render(movie))
        }
    }

    private func write(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }
}
