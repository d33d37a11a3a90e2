import Foundation
import IMDbDataSets
import ServerTestSupport
import MovieContract
import MovieServer
import Testing

/// IMDb's data sets, written here in their documented layout (gzip, tabs, `\N`, a header), read
/// into a catalogue.
@Suite("IMDb's data sets")
struct IMDbImportTests {
    @Test("movies only, adult titles and TV films left out and counted; ids from tconst; ratings out of 100; the cast in billing order, actors and actresses only")
    func movies() throws {
        let (movies, report) = try IMDbImport(folder: try IMDbFixtures.all()).readMovies()
        #expect(movies.map(\.id) == [68646, 111161, 211915])
        let shawshank = try #require(movies.first { $0.id == 111161 })
        #expect(shawshank.name == "The Shawshank Redemption" && shawshank.year == 1994 && shawshank.releaseDate == "1994-01-01")
        #expect(shawshank.rating == 93 && shawshank.grossing == 0)
        #expect(shawshank.cast.map(\.name) == ["Tim Robbins", "Morgan Freeman", "Bob Gunton"])
        #expect(shawshank.details == CatalogMovieDetails(imdbID: "tt0111161", originalTitle: nil, runtimeMinutes: 142, genres: ["Drama"], votes: 2_900_000),
                "the original title only when it differs")
        #expect(movies.first { $0.id == 211915 }?.details.originalTitle == "Le Fabuleux Destin d'Amélie Poulain")
        #expect(movies.first { $0.id == 211915 }?.details.votes == nil, "no rating, no votes")
        #expect(movies.first { $0.id == 211915 }?.name == "Amélie")
        #expect(movies.first { $0.id == 211915 }?.rating == 0, "a movie nobody rated")
        #expect(report.titlesRead == 8 && report.movies == 3 && report.withCast == 3)
        #expect(report.leftOut == ["not a movie": 2, "not a movie (a TV film: --tv-movies takes them)": 1, "adult (--adult takes them)": 1, "no year": 1])
        _ = try Catalog(movies: movies)
    }

    @Test("--tv-movies and --adult take them; the cast keeps at most its size")
    func options() throws {
        var options = IMDbImport.Options()
        options.tvMovies = true
        options.adult = true
        options.castSize = 2
        let (movies, _) = try IMDbImport(folder: try IMDbFixtures.all(), options: options).readMovies()
        #expect(movies.map(\.id) == [68646, 111161, 200001, 211915, 300001])
        #expect(movies.first { $0.id == 111161 }?.cast.map(\.name) == ["Tim Robbins", "Morgan Freeman"])
    }

    @Test("without principals and names there is no cast; one of the two alone is refused with what to do; plain .tsv files, a byte order mark and Windows line ends are read too; a missing folder says so in words")
    func files() throws {
        let plain = try IMDbFixtures.folder(["title.basics.tsv": IMDbFixtures.basics.enumerated().map { ($0.offset == 0 ? "\u{FEFF}" : "") + $0.element + "\r" }, "title.ratings.tsv": IMDbFixtures.ratings])
        let (movies, report) = try IMDbImport(folder: plain).readMovies()
        #expect(movies.count == 3 && report.withCast == 0)
        #expect(movies.first { $0.id == 111161 }?.rating == 93)
        let half = try IMDbFixtures.folder(["title.basics.tsv.gz": IMDbFixtures.basics, "title.ratings.tsv.gz": IMDbFixtures.ratings, "title.principals.tsv.gz": IMDbFixtures.principals])
        #expect(throws: DataSetError.unreadable(file: "name.basics.tsv.gz", reason: "is needed beside title.principals for the cast: add it, or remove both")) {
            try IMDbImport(folder: half).readMovies()
        }
        let none = try IMDbFixtures.folder(["title.ratings.tsv.gz": IMDbFixtures.ratings])
        #expect(throws: DataSetError.self) { try IMDbImport(folder: none).readMovies() }
        let unreadable = DataSetFile(url: URL(fileURLWithPath: "/nonexistent/title.basics.tsv.gz"), columns: IMDbLayout.basics.columns)
        #expect(throws: DataSetError.unreadable(file: "title.basics.tsv.gz", reason: "cannot be opened (no such file)")) {
            try unreadable.forEachRow({ _ throws(DataSetError) in }, badLine: { (error: DataSetError) throws(DataSetError) in throw error })
        }
    }

    @Test("a broken line, a bad number, another layout: the file, the line and the reason, nothing read; --skip-bad-lines counts them instead")
    func badLines() throws {
        func failure(_ basics: [String]) -> String? {
            guard let folder = try? IMDbFixtures.folder(["title.basics.tsv.gz": basics, "title.ratings.tsv.gz": IMDbFixtures.ratings]) else { return "no folder" }
            do throws(DataSetError) {
                _ = try IMDbImport(folder: folder).readMovies()
                return nil
            } catch {
                return error.description
            }
        }
        var broken = IMDbFixtures.basics
        broken[2] = "tt0111161\tmovie\tThe Shawshank Redemption"
        #expect(failure(broken) == "title.basics.tsv.gz, line 3: 3 fields, where the layout has 9 (tconst, titleType, primaryTitle, originalTitle, isAdult, startYear, endYear, runtimeMinutes, genres)")
        var badYear = IMDbFixtures.basics
        badYear[3] = "tt0068646\tmovie\tThe Godfather\tThe Godfather\t0\t19x2\t\\N\t175\tCrime,Drama"
        #expect(failure(badYear) == "title.basics.tsv.gz, line 4: startYear '19x2' is not a whole number")
        var badID = IMDbFixtures.basics
        badID[3] = "xx0068646\tmovie\tThe Godfather\tThe Godfather\t0\t1972\t\\N\t175\tCrime,Drama"
        #expect(failure(badID) == "title.basics.tsv.gz, line 4: tconst 'xx0068646' is not an IMDb id (tt and digits)")
        badID[3] = "tt+068646\tmovie\tThe Godfather\tThe Godfather\t0\t1972\t\\N\t175\tCrime,Drama"
        #expect(failure(badID) == "title.basics.tsv.gz, line 4: tconst 'tt+068646' is not an IMDb id (tt and digits)")
        var huge = IMDbFixtures.basics
        huge[3] = "tt0068646\tmovie\tThe Godfather\tThe Godfather\t0\t1972\t\\N\t99999999999999999999\tCrime,Drama"
        #expect(failure(huge)?.contains("runtimeMinutes '99999999999999999999' is not a whole number") == true)
        var other = IMDbFixtures.basics
        other[0] = "id\ttype\ttitle"
        #expect(failure(other)?.hasPrefix("title.basics.tsv.gz, line 1: not IMDb's layout for this file") == true)
        #expect(failure([]) == "title.basics.tsv.gz, line 1: not IMDb's layout for this file: the header should be '\(IMDbLayout.basics.columns.joined(separator: "\\t"))', not '(an empty file)'")

        var options = IMDbImport.Options()
        options.skipBadLines = true
        let both = broken.enumerated().map { $0.offset == 3 ? badYear[3] : $0.element }
        let (movies, report) = try IMDbImport(folder: try IMDbFixtures.folder(["title.basics.tsv.gz": both, "title.ratings.tsv.gz": IMDbFixtures.ratings]), options: options).readMovies()
        #expect(movies.map(\.id) == [211915], "the two good movies after the bad lines are read")
        #expect(report.badLines == 2 && report.firstBadLines.first?.hasPrefix("title.basics.tsv.gz, line 3:") == true)
    }

    @Test("a gzip file cut short or damaged is refused whole, with what to do")
    func damaged() throws {
        let whole = try IMDbFixtures.gzip(IMDbFixtures.basics.joined(separator: "\n") + "\n")
        for (label, bytes) in [("cut short", whole.prefix(whole.count - 20)), ("one byte changed", { var d = whole; d[d.count / 2] ^= 0xFF; return d }()), ("not gzip", Data("hello".utf8))] {
            let folder = try IMDbFixtures.folder(["title.ratings.tsv.gz": IMDbFixtures.ratings])
            try bytes.write(to: folder.appendingPathComponent("title.basics.tsv.gz"))
            do throws(DataSetError) {
                _ = try IMDbImport(folder: folder).readMovies()
                Issue.record("\(label): read")
            } catch {
                guard case let .damaged(file, reason) = error else { Issue.record("\(label): \(error)"); continue }
                #expect(file == "title.basics.tsv.gz" && reason.contains("download"), "\(label): \(reason)")
            }
        }
    }

    @Test("a file of many blocks: lines cut across blocks are read whole, every movie once")
    func manyBlocks() throws {
        let count = 60_000
        let lines = [IMDbFixtures.basicsHeader] + (1...count).map { "tt\(String(format: "%07d", $0))\tmovie\tA film called number \($0) with a long enough title\t-\t0\t\(1900 + $0 % 120)\t\\N\t90\tDrama" }
        let ratings = ["tconst\taverageRating\tnumVotes"] + (1...count).map { "tt\(String(format: "%07d", $0))\t\(Double($0 % 100) / 10)\t\($0)" }
        let (movies, _) = try IMDbImport(folder: try IMDbFixtures.folder(["title.basics.tsv.gz": lines, "title.ratings.tsv.gz": ratings])).readMovies()
        #expect(movies.count == count)
        #expect(movies.last?.name == "A film called number \(count) with a long enough title")
        #expect(movies.first { $0.id == 12345 }?.rating == 45)
    }
}
