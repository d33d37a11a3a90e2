import ArgumentParser
import Foundation
import MovieContract
import MovieServer
import TextFormatting

/// `marquee generate-catalog`: a synthetic catalog file for `marquee serve --catalog`.
struct GenerateCatalogCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate-catalog",
        abstract: "Write a synthetic catalog of any size (the same for the same seed) for 'marquee serve --catalog'."
    )

    @Option(parsing: .unconditional, help: "How many movies.")
    var movies = 10_000

    @Option(help: "The seed; the same seed gives the same catalog.")
    var seed: UInt64 = 1

    @Option(name: .customLong("first-id"), parsing: .unconditional, help: ArgumentHelp("The id of the first movie; the others follow it. Start after the ids a database already holds, so that importing the file adds movies instead of replacing them.", valueName: "id"))
    var firstID = 1

    @Option(help: ArgumentHelp("Where to write the JSON catalog; - for standard output.", valueName: "file"))
    var output: String

    @Flag(help: "Replace the output file if it exists.")
    var force = false

    func validate() throws {
        guard (1...5_000_000).contains(movies) else { throw ValidationError("the number of movies must be from 1 to 5000000, not \(movies)") }
        guard (1...Self.largestFirstID).contains(firstID) else { throw ValidationError("the first id must be from 1 to \(Self.largestFirstID), not \(firstID)") }
    }

    /// Ids stay within what every backend and client stores (a 32-bit signed integer), whatever the count.
    static let largestFirstID = Int(Int32.max) - 5_000_000

    func run() throws {
        if output != "-", !force, FileManager.default.fileExists(atPath: output) {
            throw CLIError.failed("\(TerminalText.safe(output)) exists; give --force to replace it, or another --output")
        }
        let catalog = SyntheticCatalog.movies(count: movies, seed: seed, firstID: firstID)
        let data = Data(ContractJSON.list(catalog).utf8)
        guard output != "-" else {
            FileHandle.standardOutput.write(data)
            return
        }
        do {
            try data.write(to: URL(fileURLWithPath: output), options: .atomic)
        } catch {
            throw CLIError.cannotWriteOutput(reason: "\(output): \(FileErrorText.reason(error))")
        }
        print("Wrote \(movies) movies (ids \(firstID)–\(firstID + movies - 1), seed \(seed)) to \(TerminalText.safe(output)).")
    }
}
