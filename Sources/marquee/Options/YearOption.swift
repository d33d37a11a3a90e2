import ArgumentParser
import Movies

/// `--year`, shared by the top-list commands.
struct YearOption: ParsableArguments {
    @Option(parsing: .unconditional, help: "The release year, from \(MovieList.years.lowerBound) to \(MovieList.years.upperBound).")
    var year: Int = 2016

    func validate() throws {
        guard MovieList.years.contains(year) else {
            throw ValidationError("the year must be from \(MovieList.years.lowerBound) to \(MovieList.years.upperBound), not \(year)")
        }
    }
}
