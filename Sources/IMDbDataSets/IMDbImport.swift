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

    /// The movies, by id (the number of their `tconst`), and the report; `progress` is told of
    /// each file as it starts and every 100,000 lines.
    public func read(progress: (String) -> Void = { _ in }) throws(DataSetError) -> (movies: [CatalogMovie], report: Report) {
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
        var drafts = try readBasics(&report, badLine: badLine, progress: progress)
        try readRatings(into: &drafts, badLine: badLine, progress: progress)
        if let (principals, names) = try castFiles() {
            try readCast(principals, names, into: &drafts, badLine: badLine, progress: progress)
        }
        report.badLines = badLines
        report.firstBadLines = firstBadLines
        report.movies = drafts.count
        report.withCast = drafts.values.count { !$0.cast.isEmpty }
        // Each draft is let go as its movie is made: a million of them are not held twice.
        var movies: [CatalogMovie] = []
        movies.reserveCapacity(drafts.count)
        for id in drafts.keys.sorted() {
            if let draft = drafts.removeValue(forKey: id) { movies.append(draft.movie(id: id)) }
        }
        return (movies, report)
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

    private func readBasics(_ report: inout Report, badLine: (DataSetError) throws(DataSetError) -> Void, progress: (String) -> Void) throws(DataSetError) -> [Int: MovieDraft] {
        let file = DataSetFile(url: try required(IMDbLayout.basics.file), columns: IMDbLayout.basics.columns)
        progress("reading \(file.name)")
        var drafts: [Int: MovieDraft] = [:]
        var leftOut: [String: Int] = [:]
        var read = 0
        try file.forEachRow({ row throws(DataSetError) in
            read += 1
            if read % 100_000 == 0 { progress("\(file.name): \(read) titles, \(drafts.count) movies") }
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
            guard drafts[id] == nil else { throw row.refusal("tconst", "tt\(id) is listed twice") }
            var draft = MovieDraft(name: title, year: year)
            draft.details = CatalogMovieDetails(
                imdbID: imdbID, originalTitle: original,
                runtimeMinutes: runtime.flatMap { (1...CatalogMovieDetails.longestRuntime).contains($0) ? $0 : nil },
                genres: genres.map { Array($0.prefix(3)) }
            )
            drafts[id] = draft
        }, badLine: badLine)
        report.titlesRead = read
        report.leftOut = leftOut
        return drafts
    }

    private func readRatings(into drafts: inout [Int: MovieDraft], badLine: (DataSetError) throws(DataSetError) -> Void, progress: (String) -> Void) throws(DataSetError) {
        let file = DataSetFile(url: try required(IMDbLayout.ratings.file), columns: IMDbLayout.ratings.columns)
        progress("reading \(file.name)")
        try file.forEachRow({ row throws(DataSetError) in
            let id = try row.identifier(0, prefix: "tt", "tconst")
            guard let rating = try row.decimal(1, "averageRating") else { throw row.refusal("averageRating", "is missing") }
            guard (0...10).contains(rating) else { throw row.refusal("averageRating", "is \(rating), not from 0 to 10") }
            guard let votes = try row.integer(2, "numVotes") else { throw row.refusal("numVotes", "is missing") }
            guard drafts[id] != nil else { return }
            drafts[id]?.rating = (rating * 10).rounded()
            drafts[id]?.details.votes = votes
        }, badLine: badLine)
    }

    /// The cast: the principals who act, in billing order, then the names of the people kept.
    private func readCast(
        _ principalsURL: URL, _ namesURL: URL, into drafts: inout [Int: MovieDraft],
        badLine: (DataSetError) throws(DataSetError) -> Void, progress: (String) -> Void
    ) throws(DataSetError) {
        let principals = DataSetFile(url: principalsURL, columns: IMDbLayout.principals.columns)
        progress("reading \(principals.name)")
        var read = 0
        let castSize = options.castSize
        try principals.forEachRow({ row throws(DataSetError) in
            read += 1
            if read % 1_000_000 == 0 { progress("\(principals.name): \(read) lines") }
            let id = try row.identifier(0, prefix: "tt", "tconst")
            guard drafts[id] != nil else { return }
            guard let category = try row.text(3, "category"), category == "actor" || category == "actress" || category == "self" else { return }
            guard let ordering = try row.integer(1, "ordering") else { throw row.refusal("ordering", "is missing") }
            let person = try row.identifier(2, prefix: "nm", "nconst")
            drafts[id]?.billing(person, at: ordering, keeping: castSize)
        }, badLine: badLine)

        var wanted: [Int: String] = [:]
        for draft in drafts.values { for member in draft.cast { wanted[member.person] = "" } }
        let names = DataSetFile(url: namesURL, columns: IMDbLayout.names.columns)
        progress("reading \(names.name) for \(wanted.count) people")
        try names.forEachRow({ row throws(DataSetError) in
            let person = try row.identifier(0, prefix: "nm", "nconst")
            guard wanted[person] != nil else { return }
            guard let name = try row.text(1, "primaryName"), !name.isEmpty,
                  !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
                throw row.refusal("primaryName", "is empty or holds a control character")
            }
            wanted[person] = name
        }, badLine: badLine)
        for id in Array(drafts.keys) {
            drafts[id]?.name(with: wanted)
        }
    }
}

/// A movie as the data sets give it, before it is a catalogue's movie.
struct MovieDraft {
    struct Member {
        var ordering: Int
        var person: Int
    }

    var name: String
    var year: Int
    var rating: Double = 0
    var details = CatalogMovieDetails()
    var cast: [Member] = []
    var castNames: [String] = []

    /// Keeps `person` if among the first `size` by billing order.
    mutating func billing(_ person: Int, at ordering: Int, keeping size: Int) {
        guard !cast.contains(where: { $0.person == person }) else { return }
        cast.append(Member(ordering: ordering, person: person))
        cast.sort { $0.ordering < $1.ordering }
        if cast.count > size { cast.removeLast() }
    }

    /// The cast's names, those the names file does not give left out.
    mutating func name(with names: [Int: String]) {
        castNames = cast.compactMap { names[$0.person].flatMap { $0.isEmpty ? nil : $0 } }
    }

    /// IMDb's data sets carry a year but no release date: the date is the year's first day.
    func movie(id: Int) -> CatalogMovie {
        var movie = CatalogMovie(
            name: name, id: id, year: year, releaseDate: String(format: "%04d-01-01", year), grossing: 0, rating: rating,
            cast: castNames.map(CatalogMovie.Actor.init(name:))
        )
        movie.details = details
        return movie
    }
}
