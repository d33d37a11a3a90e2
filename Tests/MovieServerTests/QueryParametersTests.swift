import MarqueeTestSupport
@testable import MovieServer
import Testing

/// A query's canonical form, the response cache's key for a search: a query already in that form
/// is taken as it is, and must come out exactly as the long way makes it.
@Suite("Query parameters")
struct QueryParametersTests {
    @Test("a query in canonical form is its own; any other is read, escaped and sorted", arguments: [
        ("query=the", "query=the"), ("sort=rating&year=2016", "sort=rating&year=2016"),
        ("year=2016&sort=rating", "sort=rating&year=2016"), ("a", "a="), ("a=1&&b=2", "a=1&b=2"), ("&a=1", "a=1"),
        ("b=%41", "b=A"), ("a=1=2", "a=1%3D2"), ("a=1&a=1", "a=1&a=1"), ("q=caf%C3%A9", "q=café"), ("q=é&a=1", "a=1&q=é"),
    ])
    func canonicalForms(query: String, canonical: String) {
        #expect(QueryParameters.canonical(query[...]) == canonical)
    }

    @Test("20,000 random queries of names, values, separators, escapes and non-ASCII: the short way and the long way agree")
    func shortWayAgrees() {
        let pieces = ["a", "b", "q", "year", "2016", "=", "=", "&", "&", "%", "%2", "%26", "%3D", "%41", "+", "é", "1", "Z"]
        var generator = SeededGenerator(seed: 20261128)
        for _ in 0..<20_000 {
            let query = (0..<Int.random(in: 0...9, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
            #expect(QueryParameters.canonical(query[...]) == QueryParameters.sortedCanonical(query[...]), "\(query)")
        }
    }
}
