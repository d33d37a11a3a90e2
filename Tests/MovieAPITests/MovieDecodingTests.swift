import Foundation
import MovieAPI
import MovieContract
import Movies
import Networking
import ReferenceAPI
import Testing

@Suite("Movie decoding: the contract's movie read and made a domain movie")
struct MovieDecodingTests {
    @Test("every reference movie body decodes and converts to its domain value", arguments: 1...10)
    func decodesEveryMovie(id: Int) throws {
        let body = try #require(ReferenceBodies.body(at: "movies/\(id).json"))
        let movie = try APIRoute.movieRequest(id: 1).decode(body)
        #expect(movie.id == id)
        #expect(movie.year == 2016)
        #expect(movie.cast.count == 3)
        #expect(CalendarDate.string(from: movie.releaseDate).hasPrefix("2016-"))
    }

    @Test("Finding Dory converts field by field, its release date exactly 2016-06-17 UTC")
    func convertsFindingDory() throws {
        let body = try #require(ReferenceBodies.body(at: "movies/1.json"))
        let movie = try APIRoute.movieRequest(id: 1).decode(body)
        #expect(movie == Movie(
            id: 1, name: "Finding Dory", year: 2016,
            releaseDate: Date(timeIntervalSince1970: 1_466_121_600),
            grossing: 486_295_561, rating: 74,
            cast: [MovieActor(name: "Ellen DeGeneres"), MovieActor(name: "Albert Brooks"), MovieActor(name: "Ed O'Neill")]
        ))
    }

    @Test("the reference top lists decode in their order")
    func decodesTopLists() throws {
        let grossing = try APIRoute.moviesRequest(.topGrossing, year: 2016).decode(#require(ReferenceBodies.body(at: "movies/topGrossing/2016.json")))
        let rated = try APIRoute.moviesRequest(.topRated, year: 2016).decode(#require(ReferenceBodies.body(at: "movies/topRated/2016.json")))
        #expect(grossing.map(\.id) == [1, 2, 3, 4, 5, 6, 7, 8, 9, 10])
        #expect(rated.map(\.id) == [7, 6, 3, 2, 10, 5, 1, 8, 4, 9])
        #expect(grossing.map(\.releaseDate).map(CalendarDate.string) == [
            "2016-06-17", "2016-12-16", "2016-05-06", "2016-07-08", "2016-04-15",
            "2016-02-12", "2016-03-04", "2016-03-25", "2016-08-05", "2016-11-05",
        ])
    }

    @Test("a decimal rating is kept as it is")
    func acceptsDecimalRatings() throws {
        let body = Data(#"{"name":"X","id":1,"year":2016,"releaseDate":"2016-01-01","grossing":1,"rating":7.5,"cast":[]}"#.utf8)
        #expect(try APIRoute.movieRequest(id: 1).decode(body).rating == 7.5)
    }

    @Test("a release date that is not yyyy-MM-dd fails with its JSON path")
    func rejectsBadDates() {
        let body = Data(#"[{"name":"X","id":1,"year":2016,"releaseDate":"17/06/2016","grossing":1,"rating":7,"cast":[]}]"#.utf8)
        do {
            _ = try APIRoute.moviesRequest(.topGrossing, year: 2016).decode(body)
            Issue.record("decoding should fail")
        } catch {
            guard case let .cannotDecode(path, reason) = error else { Issue.record("unexpected \(error)"); return }
            #expect(path == "$[0].releaseDate")
            #expect(reason.contains("yyyy-MM-dd"))
        }
    }

    @Test("a cast member without a name fails with its JSON path")
    func rejectsBadCast() {
        let body = Data(#"{"name":"X","id":1,"year":2016,"releaseDate":"2016-01-01","grossing":1,"rating":7,"cast":[{"name":"A"},{}]}"#.utf8)
        #expect(throws: NetworkError.cannotDecode(path: "$.cast[1].name", reason: "the key is missing")) {
            _ = try APIRoute.movieRequest(id: 1).decode(body)
        }
    }

    @Test("a day that does not exist fails with its JSON path, in a movie, a list and a search page", arguments: [
        ("movie", "$.releaseDate"), ("list", "$[1].releaseDate"), ("page", "$.movies[1].releaseDate"),
    ])
    func rejectsDaysThatDoNotExist(shape: String, path: String) throws {
        let good = #"{"name":"X","id":1,"year":2016,"releaseDate":"2016-02-29","grossing":1,"rating":7,"cast":[]}"#
        let bad = #"{"name":"Y","id":2,"year":2016,"releaseDate":"2016-02-30","grossing":1,"rating":7,"cast":[]}"#
        let decode: (Data) throws(NetworkError) -> Void = switch shape {
        case "movie": { body throws(NetworkError) in _ = try APIRoute.movieRequest(id: 2).decode(body) }
        case "list": { body throws(NetworkError) in _ = try APIRoute.moviesRequest(.topGrossing, year: 2016).decode(body) }
        default: { body throws(NetworkError) in _ = try APIRoute.searchRequest(MovieSearchRequest(text: nil)).decode(body) }
        }
        let body = switch shape {
        case "movie": bad
        case "list": "[\(good),\(bad)]"
        default: #"{"movies":["# + good + "," + bad + #"],"next":null,"rank":1}"#
        }
        #expect(throws: NetworkError.cannotDecode(path: path, reason: "expected a yyyy-MM-dd date, found '2016-02-30'")) {
            try decode(Data(body.utf8))
        }
    }
}
