import Foundation
import MarqueeTestSupport
import Testing

/// "Did you mean" through the app, against the embedded server's bundled catalogue and offline.
@Suite("Did you mean through the app")
struct SearchSuggestionCommandTests {
    let marquee = MarqueeProcess()

    @Test("a typo prints no movies and one line with what was meant and its command; a year-like number its --year")
    func typos() async throws {
        let typo = try await marquee.run(["search", "zootopa"])
        #expect(typo.status == 0, "\(typo.standardError)")
        #expect(typo.errorLines.contains("marquee: no movies match 'zootopa'; did you mean 'zootopia'? (marquee search zootopia)"), "\(typo.standardError)")

        let versus = try await marquee.run(["search", "batman", "vs", "superman"])
        #expect(versus.errorLines.contains("marquee: no movies match 'batman vs superman'; did you mean 'batman v superman'? (marquee search batman v superman)"), "\(versus.standardError)")

        let year = try await marquee.run(["search", "doctor", "strange", "2016"])
        #expect(year.errorLines.contains("marquee: no movies match 'doctor strange 2016'; 2016 looks like a year: marquee search doctor strange --year 2016"), "\(year.standardError)")

        let json = try await marquee.run(["search", "jungel", "--json"])
        let answer = try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any]
        let suggestion = answer?["suggestion"] as? [String: Any]
        #expect(suggestion?["query"] as? String == "jungle")
        #expect(suggestion?["movies"] as? Int == 1)
        #expect(suggestion?["source"] as? String == "network")
        #expect(suggestion?["command"] as? String == "marquee search jungle")
    }

    @Test("a search that finds three movies or more never asks; one that finds fewer does")
    func askedOnlyAfterLittle() async throws {
        let many = try await marquee.run(["search", "a", "--verbose"])
        #expect(many.status == 0, "\(many.standardError)")
        #expect(!many.standardError.contains("/api/movies/suggestions"), "\(many.standardError)")
        let few = try await marquee.run(["search", "zootopa", "--verbose"])
        #expect(few.standardError.contains("/api/movies/suggestions?query=zootopa"), "\(few.standardError)")
    }

    @Test("a search that finds is not asked about")
    func foundIsLeftAlone() async throws {
        let found = try await marquee.run(["search", "zootopia", "--json"])
        let answer = try JSONSerialization.jsonObject(with: Data(found.standardOutput.utf8)) as? [String: Any]
        #expect(answer?["suggestion"] == nil)
        let table = try await marquee.run(["search", "zootopia"])
        #expect(!table.standardError.contains("did you mean"), "\(table.standardError)")
    }

    @Test("offline, the stored movies are searched for the suggestion, and the line says so")
    func offline() async throws {
        #expect(try await marquee.run(["search", "zootopia"]).status == 0)
        let offline = try await marquee.run(["search", "zootopa", "--offline"])
        #expect(offline.status == 0, "\(offline.standardError)")
        #expect(offline.errorLines.contains(
            "marquee: no movies match 'zootopa'; did you mean 'zootopia'? (marquee search zootopia --offline) — searched the stored movies offline"
        ), "\(offline.standardError)")
    }
}
