import MovieContract
@testable import MovieServer
import Movies
import Testing

@Suite("The search index's snapshot")
struct SearchIndexSnapshotTests {
    private static let titles = ["The Lost River", "Golden Harbor", "Finding Dory", "Zootopia"]
    private static let actors = ["Ava Costa", "Ren Sato", "Élan Vital"]

    private static func movie(_ number: Int) -> CatalogMovie {
        let title: String = titles[number % 4] + " \(number)"
        let released: String = "20\(10 + number % 10)-0\(1 + number % 9)-1\(number % 10)"
        let rating: Double = Double(number % 10) + 0.5
        return CatalogMovie(
            name: title, id: 1000 + number * 7, year: 1990 + number % 20, releaseDate: released,
            grossing: number * 1_000_003 % 97_000_000, rating: rating, cast: [CatalogMovie.Actor(name: actors[number % 3])]
        )
    }

    private static let movies: [CatalogMovie] = (1...40).map(movie)

    private static let searches: [MovieSearch] = ["the", "golden harbor", "zoot", "ava", "élan", "finding dory 3", "r"]
        .flatMap { words in SearchSort.allCases.map { MovieSearch(words: SearchText.words(words), sort: $0, limit: 15) } }
        + SearchSort.allCases.map { MovieSearch(words: [], sort: $0, limit: 15) }

    @Test("an index read back from its snapshot answers every search as the index it was made from")
    func roundTrip() throws {
        let made = MemorySearchIndex(Self.movies)
        let read = try MemorySearchIndex(snapshot: made.snapshot())
        #expect(read.count == made.count)
        for search in Self.searches {
            #expect(read.search(search) == made.search(search), "\(search)")
        }
        #expect(Self.searches.contains { made.search($0).count > 3 }, "the searches find movies")
    }

    @Test("a snapshot handed over a part at a time as it is written is, part for part, the whole cut in parts", arguments: [8, 64, 1003, 1 << 20])
    func writtenInParts(partSize: Int) throws {
        let index = MemorySearchIndex(Self.movies)
        let whole = index.snapshot()
        var parts: [(part: [UInt8], number: Int, of: Int)] = []
        let size = partSize - partSize % 8
        index.writeSnapshot(partSize: size) { part, number, count in parts.append((Array(part), number, count)) }
        let expected = SearchIndexSnapshot.parts(of: whole, partSize: size)
        #expect(parts.map(\.part) == expected.map(Array.init), "part size \(size)")
        #expect(parts.map(\.number) == Array(expected.indices))
        #expect(parts.allSatisfy { $0.of == expected.count })
        #expect(expected.count > 1 || size >= whole.count)
        #expect(throws: Never.self) { try MemorySearchIndex(snapshot: parts.flatMap(\.part)) }
    }

    @Test("a snapshot with any one byte changed, or cut at any length, is refused, never trapped on")
    func everyByteChecked() throws {
        let bytes = MemorySearchIndex(Self.movies).snapshot()
        for offset in stride(from: 0, to: bytes.count, by: max(1, bytes.count / 400)) {
            var changed = bytes
            changed[offset] ^= 0x40
            #expect(throws: SearchIndexSnapshot.Unreadable.self) { try MemorySearchIndex(snapshot: changed) }
        }
        for length in stride(from: 0, to: bytes.count, by: max(1, bytes.count / 100)) {
            #expect(throws: SearchIndexSnapshot.Unreadable.self) { try MemorySearchIndex(snapshot: Array(bytes.prefix(length))) }
        }
    }

    @Test("a snapshot whose checksum holds but whose arrays do not fit (a movie out of range, an order that is not one, a length past the end) is refused", arguments: Hostile.allCases)
    func checksummedButHostile(hostile: Hostile) throws {
        #expect(throws: SearchIndexSnapshot.Unreadable.self) { try MemorySearchIndex(snapshot: hostile.snapshot) }
    }

    enum Hostile: CaseIterable {
        case movieOutOfRange, orderRepeats, lengthPastEnd, fewerYears, fewerGenres

        /// Two movies' index, written by hand with this part wrong.
        var snapshot: [UInt8] { Self.written(wrong: self) }

        /// Two movies' index written by hand: rightly, or with `wrong` wrong.
        static func written(wrong: Hostile?) -> [UInt8] {
            var writer = SnapshotWriter()
            writer.write([Int(1), 2])
            writer.write(wrong == .fewerYears ? [Int32(2000)] : [Int32(2000), 2001])
            writer.write([Int(5), 6])
            writer.write([1.5, 2.5])
            writer.write(PackedStrings(count: 2) { ["2000-01-01", "2001-01-01"][$0] })
            writer.write(PackedStrings(count: 2) { ["a", "b"][$0] })
            writer.write([Int32(90), 0])
            writer.write([Int32(1000), -1])
            writer.write(wrong == .fewerGenres ? [UInt32(1)] : [UInt32(1), 0])
            for _ in 0..<2 {
                writer.write(PackedStrings(count: 2) { ["a", "b"][$0] })
                writer.write([Int32(0), 1, 2])
                writer.write(wrong == .movieOutOfRange ? [Int32(0), 7] : [Int32(0), 1])
            }
            writer.write(PackedStrings(count: 2) { [" a ", " b "][$0] })
            for _ in 0..<4 { writer.write(wrong == .orderRepeats ? [Int32(1), 1] : [Int32(0), 1]) }
            if wrong == .lengthPastEnd {
                return SnapshotWriter.finishing(writer, appending: [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F])
            }
            return writer.finish()
        }
    }

    @Test("the same two movies written by hand, rightly, are read: the hostile cases fail for the part they change")
    func handWrittenControl() throws {
        let index = try MemorySearchIndex(snapshot: Hostile.written(wrong: nil))
        #expect(index.search(MovieSearch(words: ["b"])).map(\.id) == [2])
        #expect(index.search(MovieSearch(words: [], filter: MovieFilter(genres: ["Action"], runtime: 90...90, minimumVotes: 1000))).map(\.id) == [1])
    }
}
