import Foundation
import MovieContract
@testable import MovieServer
import Testing

/// The shelf's page, written by hand, is what the contract's encoder writes for the same page.
@Suite("A shelf page's JSON")
struct ShelfListJSONTests {
    static let awkward = ["", "plain", "quote \" and \\ back", "tab\tline\n", "é à ü", "千と千尋", "🎬", "a/b"]

    @Test("entries with and without titles, removals, a next key or none: the same bytes as JSONEncoder with sorted keys")
    func sameAsTheEncoder() throws {
        var generator = SystemRandomNumberGenerator()
        func text() -> String { (0..<Int.random(in: 0...3, using: &generator)).map { _ in Self.awkward.randomElement(using: &generator)! }.joined() }
        for round in 0..<50 {
            var entries: [(ShelfEntry, Diary.Value?)] = []
            var titles: [Int: MovieTitle] = [:]
            for index in 0..<Int.random(in: 0...12, using: &generator) {
                let version = WatchlistVersion(changedAt: Int64.random(in: 0...4_000_000_000_000, using: &generator), device: "d")
                if Bool.random(using: &generator) {
                    entries.append((ShelfEntry(key: "gone-\(index)", value: "", version: version, removed: true), nil))
                } else {
                    let value = Diary.Value(movieId: index, watchedOn: text(), rewatch: Bool.random(using: &generator), note: text())
                    entries.append((ShelfEntry(key: "entry-\(index)", value: Diary.text(of: value), version: version, removed: false), value))
                    if Bool.random(using: &generator) { titles[index] = MovieTitle(name: text(), year: Int.random(in: 1888...2030, using: &generator)) }
                }
            }
            let next = round % 2 == 0 ? nil : "entry-\(round)"
            let written = ShelfJSON.list(entries, of: Diary.self, titles: titles, next: next)
            let expected = ShelfWire<Diary.Value>.List(
                entries: entries.compactMap { entry, value in
                    value.map { value in
                        .init(key: entry.key, value: value, changedAt: WatchlistClock.string(entry.version.changedAt),
                              title: titles[value.movieId]?.name, year: titles[value.movieId]?.year)
                    }
                },
                removed: entries.filter { $0.0.removed }.map { .init(key: $0.0.key, changedAt: WatchlistClock.string($0.0.version.changedAt)) },
                next: next
            )
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            #expect(written == String(decoding: try encoder.encode(expected), as: UTF8.self))
            #expect(try JSONDecoder().decode(ShelfWire<Diary.Value>.List.self, from: Data(written.utf8)) == expected)
        }
    }
}
