import ArgumentParser

/// `--year`, shared by the top-list commands.
struct YearOption: ParsableArguments {
    @Option(help: "The release year, from 1 to 9999.")
    var year: Int = 2016

    func validate() throws {
        guard (1...9999).contains(year) else {
            throw ValidationError("the year must be from 1 to 9999, not \(year)")
        }
    }
}
