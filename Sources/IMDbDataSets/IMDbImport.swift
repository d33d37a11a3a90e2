import Foundation
import MovieContract

/// Makes a catalogue of the movies in IMDb's data sets: `title.basics` gives the movies (films,
/// and TV films when asked; adult titles left out unless asked), `title.ratings` their rating,
/// and, when both are present, `title.principals` with `name.basics` their cast, in IMDb's billing
/// order. Each file is read a line at a time; what is kept is the movies and, for the cast, the
/// people they name.
public struct IMDbImport: Sendable {
    /// What to take.
    public struct Options: Sendable {
        /// Take `tvMovie` titles besides `movie`.
        public var tvMovies = false
        /// Take adult titles.
        public var adult = false
        /// Pass over a line not as the layout says, counting it, instead of refusing the import.
        public var skipBadLines = false
        /// The most cast members kept per movie.
        public var castSize = 6

        public init() {}
    }

    /// What the import took and what it left, for the operator.
    public struct Report: Sendable, Equatable {
        public var titlesRead = 0
        public var movies = 0
        /// Titles left out, by why ("not a movie", "adult", "no year").
        public var leftOut: [String: Int] = [:]
        public var badLines = 0
        /// The first bad lines passed over, to show.
        public var firstBadLines: [String] = []
        public var withCast = 0
    }

    public let folder: URL
    public let options: Options

    public init(folder: URL, options: Options = Options()) {
        self.folder = folder
        self.options = options
    }

    /// The films, in id order (the number of their `tconst`), and the report; `progress` is told
    /// of each file as it starts and every 100,000 lines.
    public func read(progress: (String) -> Void = { _ in }) throws(DataSetError) -> (films: IMDbFilms, report: Report) {
        var report = Report()
        let skipping = options.skipBadLines
        // Kept apart from the report, which the files' reads hold while a line is passed over.
        var badLines = 0
        var firstBadLines: [String] = []
        func badLine(_ error: DataSetError) throws(DataSetError) {
            guard skipping else { throw error }
            badLines += 1
            if firstBadLines.count < 5 { firstBadLines.append(error.description) }
        }
        var films = try readBasics(&report, badLine: badLine, progress: progress)
        try readRatings(into: &films, badLine: badLine, progress: progress)
        if let (principals, names) = try castFiles() {
            try readCast(principals, names, into: &films, badLine: badLine, progress: progress)
        }
        films.finishReading()
        films.sortByID()
        report.badLines = badLines
        report.firstBadLines = firstBadLines
        report.movies = films.count
        report.withCast = films.withCast
        return (films, report)
    }

    /// The file of `layout` in the folder, gzip or not; nil when neither is there.
    func file(_ name: String) -> URL? {
        for candidate in [name + ".gz", name] where FileManager.default.fileExists(atPath: folder.appendingPathComponent(candidate).path) {
            return folder.appendingPathComponent(candidate)
        }
        return nil
    }

    private func required(_ name: String) throws(DataSetError) -> URL {
        guard let url = file(name) else {
            throw .unreadable(file: name + ".gz", reason: "is not in \(folder.path): download it from https://datasets.imdbws.com/")
        }
        return url
    }

    private func castFiles() throws(DataSetError) -> (URL, URL)? {
        switch (file(IMDbLayout.principals.file), file(IMDbLayout.names.file)) {
        case let (principals?, names?): return (principals, names)
        case (nil, nil): return nil
        case (nil, _?): throw .unreadable(file: IMDbLayout.principals.file + ".gz", reason: "is needed beside name.basics for the cast: add it, or remove both")
        case (_?, nil): throw .unreadable(file: IMDbLayout.names.file + ".gz", reason: "is needed beside title.principals for the cast: add it, or remove both")
        }
    }

    private func readBasics(_ report: inout Report, badLine: (DataSetError) throws(DataSetError) -> Void, progress: (String) -> Void) throws(DataSetError) -> IMDbFilms {
        let file = DataSetFile(url: try required(IMDbLayout.basics.file), columns: IMDbLayout.basics.columns)
        progress("reading \(file.name)")
        var films = IMDbFilms(castSize: options.castSize)
        var leftOut: [String: Int] = [:]
        var read = 0
        try file.forEachRow({ row throws(DataSetError) in
            read += 1
            if read % 100_000 == 0 { progress("\(file.name): \(read) titles, \(films.count) movies") }
            let type = try row.text(1, "titleType") ?? ""
            guard type == "movie" || (type == "tvMovie" && options.tvMovies) else {
                leftOut["not a movie" + (type == "tvMovie" ? " (a TV film: --tv-movies takes them)" : ""), default: 0] += 1
                return
            }
            let id = try row.identifier(0, prefix: "tt", "tconst")
            let imdbID = try row.text(0, "tconst")
            guard let title = try row.text(2, "primaryTitle"), !title.isEmpty else { throw row.refusal("primaryTitle", "is empty") }
            guard !title.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
                throw row.refusal("primaryTitle", "holds a control character")
            }
            let adult = try row.integer(4, "isAdult")
            guard adult == 0 || adult == 1 else { throw row.refusal("isAdult", "is \(adult.map(String.init) ?? "\\N"), not 0 or 1") }
            if adult == 1, !options.adult {
                leftOut["adult (--adult takes them)", default: 0] += 1
                return
            }
            guard let year = try row.integer(5, "startYear") else {
                leftOut["no year", default: 0] += 1
                return
            }
            guard (1850...9999).contains(year) else { throw row.refusal("startYear", "is \(year), not a year from 1850 to 9999") }
            let runtime = try row.integer(7, "runtimeMinutes")
            let genres = try row.text(8, "genres").map { $0.split(separator: ",").map(String.init) }
            if let genres, let unknown = genres.first(where: { !CatalogMovieDetails.knownGenres.contains($0) }) {
                throw row.refusal("genres", "'\(unknown.prefix(40))' is not one of IMDb's genres")
            }
            let original = try row.text(3, "originalTitle").flatMap { original in
                original == title || original.isEmpty || original.unicodeScalars.contains { $0.properties.generalCategory == .control } ? nil : original
            }
            guard !films.contains(id) else { throw row.refusal("tconst", "tt\(id) is listed twice") }
            films.add(
                id: id, imdbID: imdbID ?? "", title: title, original: original, year: year,
                runtime: runtime.flatMap { (1...CatalogMovieDetails.longestRuntime).contains($0) ? $0 : nil },
                genres: genres.map { Array($0.prefix(3)) }
            )
        }, badLine: badLine)
        report.titlesRead = read
        report.leftOut = leftOut
        return films
    }

    private func readRatings(into films: inout IMDbFilms, badLine: (DataSetError) throws(DataSetError) -> Void, progress: (String) -> Void) throws(DataSetError) {
        let file = DataSetFile(url: try required(IMDbLayout.ratings.file), columns: IMDbLayout.ratings.columns)
        progress("reading \(file.name)")
        try file.forEachRow({ row throws(DataSetError) in
            let id = try row.identifier(0, prefix: "tt", "tconst")
            guard let rating = try row.decimal(1, "averageRating") else { throw row.refusal("averageRating", "is missing") }
            guard (0...10).contains(rating) else { throw row.refusal("averageRating", "is \(rating), not from 0 to 10") }
            guard let votes = try row.integer(2, "numVotes") else { throw row.refusal("numVotes", "is missing") }
            films.rate(id, rating: rating, votes: votes)
        }, badLine: badLine)
    }

    /// The cast: the principals who act, in billing order, then the names of the people kept.
    private func readCast(
        _ principalsURL: URL, _ namesURL: URL, into films: inout IMDbFilms,
        badLine: (DataSetError) throws(DataSetError) -> Void, progress: (String) -> Void
    ) throws(DataSetError) {
        let principals = DataSetFile(url: principalsURL, columns: IMDbLayout.principals.columns)
        progress("reading \(principals.name)")
        var read = 0
        try principals.forEachRow({ row throws(DataSetError) in
            read += 1
            if read % 1_000_000 == 0 { progress("\(principals.name): \(read) lines") }
            let id = try row.identifier(0, prefix: "tt", "tconst")
            guard films.contains(id) else { return }
            guard let category = try row.text(3, "category"), category == "actor" || category == "actress" || category == "self" else { return }
            guard let ordering = try row.integer(1, "ordering") else { throw row.refusal("ordering", "is missing") }
            let person = try row.identifier(2, prefix: "nm", "nconst")
            films.bill(person, at: ordering, in: id)
        }, badLine: badLine)

        let wanted = films.wantNames()
        let names = DataSetFile(url: namesURL, columns: IMDbLayout.names.columns)
        progress("reading \(names.name) for \(wanted) people")
        try names.forEachRow({ row throws(DataSetError) in
            let person = try row.identifier(0, prefix: "nm", "nconst")
            guard films.wants(person) else { return }
            guard let name = try row.text(1, "primaryName"), !name.isEmpty,
                  !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
                throw row.refusal("primaryName", "is empty or holds a control character")
            }
            films.name(person, name)
        }, badLine: badLine)
    }
}
