import Foundation
import MovieAPI
import MovieContract
import MovieServer
import Movies
import Networking
import ReferenceAPI
import Testing

/// The fast reader of movies (`JSONReadable`) against `JSONDecoder`, the authority: whatever the
/// reader accepts, JSONDecoder reads to the same value, and whatever it declines is answered by
/// JSONDecoder, value or error.
@Suite("CatalogMovie reading")
struct CatalogMovieReadingTests {
    private static func foundation(_ body: Data) -> Result<[CatalogMovie], NetworkError> {
        Result { () throws(NetworkError) in try ResponseDecoding.decodeWithFoundation([CatalogMovie].self, from: body) }
    }

    private static func decoded(_ body: Data) -> Result<[CatalogMovie], NetworkError> {
        Result { () throws(NetworkError) in try ResponseDecoding.decode([CatalogMovie].self, from: body) }
    }

    @Test("every reference body is read by the fast reader, to JSONDecoder's values")
    func readsTheReferenceBodies() throws {
        for path in ["movies/topGrossing/2016.json", "movies/topRated/2016.json"] {
            let body = try #require(ReferenceBodies.body(at: path))
            let fast = try #require(JSONReader.read([CatalogMovie].self, from: body), "declined \(path)")
            #expect(Self.foundation(body) == .success(fast))
        }
        for id in 1...10 {
            let body = try #require(ReferenceBodies.body(at: "movies/\(id).json"))
            let fast = try #require(JSONReader.read(CatalogMovie.self, from: body))
            #expect(fast == (try ResponseDecoding.decodeWithFoundation(CatalogMovie.self, from: body)))
        }
    }

    @Test("5,000 synthetic movies with escaped and non-ASCII names read as JSONDecoder reads them")
    func readsASyntheticCatalog() throws {
        var movies = SyntheticCatalog.movies(count: 5_000, seed: 7)
        let names = ["Amélie \"Le\" Fabuleux", "Tab\there\\there", "中文片名 🎬", "Slash/Back\\slash", "Line\nbreak \u{0001}"]
        for index in stride(from: 0, to: movies.count, by: 97) {
            movies[index].name = names[index % names.count]
            movies[index].rating = [7.25, 0.1, 99.99, 1e-3][index % 4]
        }
        let body = Data(ContractJSON.list(movies).utf8)
        let fast = try #require(JSONReader.read([CatalogMovie].self, from: body))
        #expect(fast.count == 5_000)
        #expect(Self.foundation(body) == .success(fast))
    }

    @Test("4,000 mutated bodies: what the reader accepts JSONDecoder reads alike, and every answer is JSONDecoder's")
    func agreesOnMutatedBodies() throws {
        let original = try Array(#require(ReferenceBodies.body(at: "movies/topGrossing/2016.json")))
        let tokens: [[UInt8]] = [
            "\"", "\\", "{", "}", "[", "]", ",", ":", "0", "7", "-", ".", "e", " ", "\n", "u", "null", "true",
            #""extra":1,"#, #""id":2,"#, #"\u0041"#, #"\ud83c\udfac"#, #"\ud83c"#, "1e400", "1.0", "01", "é", "\u{1}",
        ].map { Array($0.utf8) } + [[0x00], [0x80], [0xFF], [0xC3]]
        var seed: UInt64 = 0x5EED
        func next(_ bound: Int) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((seed >> 33) % UInt64(bound))
        }
        var accepted = 0, declined = 0
        for _ in 0..<4_000 {
            var body = original
            for _ in 0...next(3) {
                let at = next(body.count)
                switch next(4) {
                case 0: body.replaceSubrange(at..<(at + 1), with: tokens[next(tokens.count)])
                case 1: body.insert(contentsOf: tokens[next(tokens.count)], at: at)
                case 2: body.removeSubrange(at..<min(body.count, at + 1 + next(8)))
                default: body.removeSubrange(min(at, body.count - 1)..<body.count)
                }
                if body.isEmpty { body = original }
            }
            let data = Data(body)
            let authority = Self.foundation(data)
            if let fast = JSONReader.read([CatalogMovie].self, from: data) {
                accepted += 1
                #expect(authority == .success(fast), "the reader accepted \(String(decoding: body, as: UTF8.self))")
            } else {
                declined += 1
            }
            #expect(Self.decoded(data) == authority)
        }
        // Both sides of the property were exercised.
        #expect(accepted > 200)
        #expect(declined > 2_000)
    }

    @Test("a repeated key, a null and a missing key are declined and reported by JSONDecoder with their paths", arguments: [
        (#"[{"name":"X","id":1,"id":2,"year":2016,"releaseDate":"2016-01-01","grossing":1,"rating":7,"cast":[]}]"#, nil as String?),
        (#"[{"name":null,"id":1,"year":2016,"releaseDate":"2016-01-01","grossing":1,"rating":7,"cast":[]}]"#, "$[0].name"),
        (#"[{"name":"X","id":1,"year":2016,"releaseDate":"2016-01-01","grossing":1,"rating":7,"cast":[{"name":"A"},{}]}]"#, "$[0].cast[1].name"),
    ])
    func declinesAndReports(json: String, path: String?) {
        let body = Data(json.utf8)
        #expect(JSONReader.read([CatalogMovie].self, from: body) == nil)
        #expect(Self.decoded(body) == Self.foundation(body))
        if let path, case let .failure(.cannotDecode(reported, _)) = Self.decoded(body) {
            #expect(reported == path)
        } else if path != nil {
            Issue.record("expected a decoding error at \(path!)")
        }
    }
}
