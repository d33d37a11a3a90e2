import Foundation
import MovieContract
import Testing

/// The shelf's values read by hand give exactly what `JSONDecoder` gives, for every value the
/// engine writes and for text written otherwise; what the hand reader does not take is decoded.
@Suite("Shelf values read by hand")
struct FlatJSONObjectTests {
    static let awkward = ["", "plain", "quote \" and \\ back", "tab\tnew\nline\r", "bell\u{07}", "é à ü", "千と千尋", "🎬🍿", "a/b", "\u{2028}\u{FEFF}", "\u{1F}"]

    @Test("every kind's values, written as the engine writes them, read back by hand equal to JSONDecoder's")
    func agreesWithDecoder() throws {
        var generator = SystemRandomNumberGenerator()
        func text() -> String { (0..<Int.random(in: 0...3, using: &generator)).map { _ in Self.awkward.randomElement(using: &generator)! }.joined() }
        for _ in 0..<300 {
            let diary = Diary.Value(movieId: Int.random(in: Int.min...Int.max, using: &generator), watchedOn: text(), rewatch: Bool.random(using: &generator), note: text())
            try check(Diary.self, diary)
            try check(Ratings.self, Ratings.Value(score: Int.random(in: -20...20, using: &generator)))
            try check(Lists.self, Lists.Value(name: text(), description: text()))
            try check(ListItems.self, ListItems.Value(position: text(), note: text()))
        }
    }

    private func check<Kind: ShelfKind>(_ kind: Kind.Type, _ value: Kind.Value) throws {
        let written = Kind.text(of: value)
        let object = try #require(FlatJSONObject(written), "\(written)")
        #expect(Kind.value(of: object) == value, "\(written)")
        #expect(Kind.value(of: object) == (try JSONDecoder().decode(Kind.Value.self, from: Data(written.utf8))))
    }

    @Test("text written otherwise: spaces, escapes of every form, surrogate pairs, keys in any order, keys the kind does not know")
    func writtenOtherwise() throws {
        let text = #" { "watchedOn" : "2026-01-02", "extra": null, "note": "\u00e9\ud83c\udfac\/\"\\\b\f\n\r\t", "rewatch": false, "movieId": -42 } "#
        let object = try #require(FlatJSONObject(text))
        let value = try #require(Diary.value(of: object))
        #expect(value == (try JSONDecoder().decode(Diary.Value.self, from: Data(text.utf8))))
        #expect(value.note == "é🎬/\"\\\u{08}\u{0C}\n\r\t")
        #expect(value.movieId == -42)
    }

    @Test("what the hand reader does not take: fractions, exponents, leading zeros, nesting, a key twice, lone surrogates, raw controls, trailing text, overflow")
    func refused() {
        for text in [
            #"{"score":7.0}"#, #"{"score":7e0}"#, #"{"score":07}"#, #"{"score":[7]}"#, #"{"score":{"a":1}}"#, #"{"score":7,"score":8}"#,
            #"{"note":"\ud83c"}"#, #"{"note":"\udfac"}"#, "{\"note\":\"a\nb\"}", #"{"score":7} x"#, #"{"score":7"#, #"{"score":99999999999999999999}"#,
            #"{"score":-}"#, #"{"score":tru}"#, #"{"note":"\x"}"#, #"{"note":"\u12"}"#, #"{,}"#, #"{"a":1,}"#, "", "[]",
        ] {
            #expect(FlatJSONObject(text) == nil, "\(text)")
        }
        #expect(FlatJSONObject("{}") != nil)
        #expect(FlatJSONObject(#"{"score":-9223372036854775808}"#)?.integer("score") == Int.min)
    }

    @Test("a value the hand reader leaves is decoded: a score written 7.0 is still read, as JSONDecoder reads it")
    func fallsBack() {
        let decoded = try? JSONDecoder().decode(Ratings.Value.self, from: Data(#"{"score":7.0}"#.utf8))
        #expect(Ratings.value(ofText: #"{"score":7.0}"#) == decoded)
        #expect(Ratings.values(ofTexts: [#"{"score":1}"#, #"{"score":7.0}"#, #"{"score":3}"#]) == [Ratings.Value(score: 1), decoded, Ratings.Value(score: 3)])
        #expect(Diary.values(ofTexts: [#"{"movieId":1}"#]) == [nil], "a value missing a field is none")
    }
}
