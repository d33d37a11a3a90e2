import ArgumentParser
import Foundation
import MovieServer
import MovieServerDatabases
import TextFormatting

/// `marquee catalog import FILE|--bundled --database URL`: checks a whole catalog file, then
/// writes it in batches inside one transaction. Importing the same file again changes nothing; a
/// file with a bad entry, or one that would turn stored movies into other films, changes nothing
/// and names the entry.
struct CatalogImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import a catalog file (the JSON of --catalog or generate-catalog), or the bundled movies, into a server database.",
        discussion: """
            Movies are added or updated by id; movies the file does not list are kept. --bundled \
            loads the ten movies of the original API that 'marquee serve' shows without a \
            database. A movie whose title and release date both differ from the stored movie of \
            its id is another film: the import refuses it, keeping nothing, unless --replace is \
            given (number a generated catalog after the stored movies with 'generate-catalog \
            --first-id').
            """
    )

    @Argument(help: ArgumentHelp("The JSON catalog file (or --bundled).", valueName: "file"))
    var file: String?

    @Flag(help: "Import the ten movies bundled with marquee (the original API's) instead of a file.")
    var bundled = false

    @Flag(help: "Let the file's movies replace other films stored under the same ids.")
    var replace = false

    @Option(name: .customLong("database"), help: ArgumentHelp("The database: postgres://user@host:port/database, or a SQLite file (default: $MARQUEE_DATABASE_URL).", valueName: "url"))
    var databaseOption: String?

    @Option(name: .customLong("batch-size"), parsing: .unconditional, help: "How many movies to write a statement batch.")
    var batchSize = 1000

    @Option(name: .customLong("query-timeout"), parsing: .unconditional, help: ArgumentHelp("How long the database may take to answer a batch (or to give up its lock) before the import stops.", valueName: "seconds"))
    var queryTimeout = 5

    func validate() throws {
        switch (file, bundled) {
        case (nil, false): throw ValidationError("give a catalog file to import, or --bundled for the ten movies bundled with marquee")
        case (_?, true): throw ValidationError("give a catalog file or --bundled, not both")
        default: break
        }
        guard (1...100_000).contains(batchSize) else { throw ValidationError("the batch size must be from 1 to 100000, not \(batchSize)") }
        guard (1...600).contains(queryTimeout) else { throw ValidationError("the query timeout must be from 1 to 600 seconds, not \(queryTimeout)") }
    }

    func run() async throws {
        guard let database = databaseOption ?? DatabaseArgument.fromEnvironment() else { throw CLIError.noDatabase }
        let location = try DatabaseLocation(parsing: database)
        let catalog = try file.map { try Catalog.load(from: URL(fileURLWithPath: $0)) } ?? Catalog.reference()
        let source = file.map { TerminalText.safe($0) } ?? "the bundled catalog"
        let storage = try await location.open(queryTimeout: .seconds(queryTimeout))
        let progress = ImportProgress(total: catalog.movies.count)
        let started = ContinuousClock.now
        let summary: CatalogImportSummary
        do {
            summary = try await storage.importMovies(catalog.movies, batchSize: batchSize, replacement: replace ? .allowed : .refused) { done in progress.show(done) }
        } catch {
            progress.finish()
            await storage.close()
            guard case .wouldReplaceMovies = error else { throw error }
            throw CLIError.failed("\(TerminalText.safe(error.description)); give --replace to replace such movies, or number a generated catalog after the stored ones ('marquee generate-catalog --first-id N')")
        }
        progress.finish()
        await storage.close()
        let seconds = max((ContinuousClock.now - started) / .seconds(1), 0.001)
        let rate = Int((Double(summary.total) / seconds).rounded())
        print("Imported \(NumberText.counted(summary.total, "movie")) from \(source) into the \(location): \(summary) (\(String(format: "%.1f", seconds)) s, \(rate) movies/s).")
    }
}
