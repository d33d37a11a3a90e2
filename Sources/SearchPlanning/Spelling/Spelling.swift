/// The rule of "did you mean": how far a typed word may be from the word meant, and which
/// numbers are years.
package enum Spelling {
    /// The most edits between a typed word and the word meant: 1 for a word of up to 4 letters
    /// (`vs` → `v`, `rivr` → `river`), 2 beyond (`zootopa`, `jungel`).
    package static func allowedEdits(_ word: String) -> Int {
        word.unicodeScalars.count <= 4 ? 1 : 2
    }

    /// How many candidates are kept for each typed word: the nearest word held by the most movies
    /// may not go with the rest of the query (`vs` is nearer `us` than `v` by neither rule, and
    /// "batman us superman" finds nothing).
    package static let candidatesPerWord = 12

    /// How many corrected queries are run, nearest first, before giving up.
    package static let mostTries = 24

    /// The first year a film could be from: Roundhay Garden Scene, 1888.
    package static let firstFilmYear = 1888

    /// Whether `word` is ASCII digits alone: never corrected, as any number is as likely as its neighbours.
    package static func isNumber(_ word: String) -> Bool {
        word.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
    }

    /// The year `word` names when it looks like one: four ASCII digits from 1888 to `latestYear`.
    package static func year(in word: String, latestYear: Int) -> Int? {
        guard word.utf8.count == 4, isNumber(word),
              let year = Int(word), (firstFilmYear...latestYear).contains(year) else { return nil }
        return year
    }
}
