import ArgumentParser
import Foundation
import IMDbDataSets
import MovieContract
import MovieServer
import MovieServerDatabases
import TextFormatting

/// `marquee catalog import FILE|--bundled --database URL`: checks a whole catalog file, then
/// writes it in batches inside one transaction (`--format imdb DIR`: IMDb's data sets instead).
/// Importing the same file again changes nothing; a file with a bad entry, or one that would turn
/// stored movies into other films, changes nothing and names the entry.
struct CatalogImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import a catalog file (the JSON of --catalog or generate-catalog), IMDb's data sets, or the bundled movies, into a server database.",
        discussion: """
            Movies are added or updated by id; movies the file does not list are kept. --bundled \
            loads the ten movies of the original API that 'marquee serve' shows without a \
            database. A movie whose title and release date both differ from the stored movie of \
            its id is another film: the import refuses it, keeping nothing, unless --replace is \
            given (number a generated catalog after the stored movies with 'generate-catalog \
            --first-id').

            --format imdb reads a folder of IMDb's non-commercial data sets as published \
            (https://datasets.imdbws.com/): title.basics.tsv.gz and title.ratings.tsv.gz, and \
            title.principals.tsv.gz with name.basics.tsv.gz for the cast when both are there. \
            Films only (--tv-movies adds TV films), adult titles left out (--adult takes them); \
            a movie's id is the number of its tconst (tt0111161 is 111161), its rating IMDb's \
            times ten, its release date the first day of its year (the data sets carry none). A \
            line not in IMDb's layout refuses the whole import, naming the file and the line, \
            unless --skip-bad-lines passes over it and counts it. IMDb's licence allows \
            personal and non-commercial use only.
            """
    )

    @Argument(help: ArgumentHelp("The JSON catalog file, the folder of IMDb's data sets with --format imdb (or --bundled).", valueName: "file"))
    var file: String?

    @Option(help: ArgumentHelp("What the file is: marquee (the catalog JSON) or imdb (a folder of IMDb's data sets).", valueName: "format"))
    var format: CatalogFormat = .marquee

    @Flag(name: .customLong("tv-movies"), help: "With --format imdb: take TV films (titleType tvMovie) besides films.")
    var tvMovies = false

    @Flag(help: "With --format imdb: take adult titles too.")
    var adult = false

    @Flag(name: .customLong("skip-bad-lines"), help: "With --format imdb: pass over a line not in IMDb's layout, counting it, instead of refusing the import.")
    var skipBadLines = false

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
        if format == .imdb, bundled { throw ValidationError("--bundled is Marquee's own catalog: give the folder of IMDb's data sets instead") }
        if format == .marquee, tvMovies || adult || skipBadLines {
            throw ValidationError("--tv-movies, --adult and --skip-bad-lines are for --format imdb")
        }
    }

    func run() async throws {
        guard let database = databaseOption ?? DatabaseArgument.fromEnvironment() else { throw CLIError.noDatabase }
        let location = try DatabaseLocation(parsing: database)
        let movies = try format == .imdb ? imdbMovies() : CatalogBatches(file.map { try Catalog.loadMovies(from: URL(fileURLWithPath: $0)) } ?? Catalog.reference().movies)
        let source = file.map { TerminalText.safe($0) } ?? "the bundled catalog"
        let storage = try await location.open(queryTimeout: .seconds(queryTimeout))
        let progress = ImportProgress(total: movies.count)
        let started = ContinuousClock.now
        let summary: CatalogImportSummary
        do {
            summary = try await storage.importMovies(movies, batchSize: batchSize, replacement: replace ? .allowed : .refused) { done in progress.show(done) }
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

    /// The movies of the IMDb data sets in the folder, checked, with what was left out said on
    /// standard error.
    private func imdbMovies() throws -> CatalogBatches {
        guard let file else { throw CLIError.failed("give the folder of IMDb's data sets") }
        var options = IMDbImport.Options()
        options.tvMovies = tvMovies
        options.adult = adult
        options.skipBadLines = skipBadLines
        let isTerminal = isatty(STDERR_FILENO) == 1
        let read: (films: IMDbFilms, report: IMDbImport.Report)
        do throws(DataSetError) {
            read = try IMDbImport(folder: URL(fileURLWithPath: file), options: options).read { step in
                guard isTerminal else { return }
                FileHandle.standardError.write(Data("\r\u{1B}[K\(TerminalText.safe(step))".utf8))
            }
        } catch {
            if isTerminal { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
            throw CLIError.failed("\(TerminalText.safe(error.description)); nothing was imported")
        }
        if isTerminal { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
        let report = read.report
        var said = "Read \(NumberText.counted(report.titlesRead, "title")): \(NumberText.counted(report.movies, "movie")), \(report.withCast) with a cast"
        let leftOut = report.leftOut.sorted { $0.key < $1.key }.map { "\(NumberText.grouped($0.value)) \($0.key)" }
        if !leftOut.isEmpty { said += "; left out: " + leftOut.joined(separator: ", ") }
        if report.badLines > 0 {
            said += "; \(NumberText.counted(report.badLines, "bad line")) passed over (the first: \(TerminalText.safe(report.firstBadLines.first ?? "")))"
        }
        FileHandle.standardError.write(Data((said + ".\n").utf8))
        let films = read.films
        let movies = CatalogBatches(count: films.count) { films.movies($0) }
        do throws(CatalogError) {
            try Catalog.check(movies, source: TerminalText.safe(file))
            return movies
        } catch {
            throw CLIError.failed("\(TerminalText.safe(error.description)); nothing was imported")
        }
    }
}

/// What `catalog import` reads.
enum CatalogFormat: String, ExpressibleByArgument, CaseIterable {
    /// Marquee's catalog JSON.
    case marquee
    /// A folder of IMDb's non-commercial data sets.
    case imdb
}
