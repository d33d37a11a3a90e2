import Foundation
import MarqueeTestSupport
import NetworkTestSupport
import Testing

/// The `marquee` executable end to end, against its embedded server unless said otherwise.
@Suite("marquee client commands")
struct ClientCommandTests {
    let marquee = MarqueeProcess()

    @Test("top-grossing prints the ten movies of 2016 in the reference order, with release dates")
    func topGrossing() async throws {
        let outcome = try await marquee.run(["top-grossing", "--year", "2016"])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        let rows = CommandOutput.rankedRows(outcome.standardOutput)
        #expect(rows.count == 10)
        #expect(rows.first?.contains("Finding Dory (2016)") == true)
        #expect(rows.first?.contains("2016-06-17") == true)
        #expect(rows.first?.contains("$486,295,561") == true)
        #expect(rows.last?.contains("Doctor Strange (2016)") == true)
        #expect(outcome.standardOutput.contains("Ellen DeGeneres, Albert Brooks, Ed O'Neill"))
    }

    @Test("top-rated starts with Zootopia")
    func topRated() async throws {
        let outcome = try await marquee.run(["top-rated"])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        #expect(CommandOutput.rankedRows(outcome.standardOutput).first?.contains("Zootopia (2016)") == true)
    }

    @Test("movie 6 shows Deadpool and its cast")
    func movie() async throws {
        let outcome = try await marquee.run(["movie", "6"])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        #expect(outcome.standardOutput.hasPrefix("Deadpool (2016)\n"))
        for name in ["Ryan Reynolds", "Karan Soni", "T.J. Miller", "2016-02-12", "$363,070,709"] {
            #expect(outcome.standardOutput.contains(name))
        }
    }

    @Test("--json prints the domain values and where they came from")
    func json() async throws {
        let outcome = try await marquee.run(["top-grossing", "--json"])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        let answer = try #require(try JSONSerialization.jsonObject(with: Data(outcome.standardOutput.utf8)) as? [String: Any])
        #expect(answer["source"] as? String == "network")
        #expect((answer["fetchedAt"] as? String).flatMap { try? Date($0, strategy: .iso8601) } != nil)
        #expect(answer["networkError"] == nil && answer["derivedFrom"] == nil)
        let movies = try #require(answer["movies"] as? [[String: Any]])
        #expect(movies.count == 10)
        #expect(movies.first?["name"] as? String == "Finding Dory")
        #expect(movies.first?["releaseDate"] as? String == "2016-06-17")
        #expect(movies.first?["rating"] as? Double == 74)
    }

    @Test("a server that is down fails with one clear line and a non-zero status")
    func serverDown() async throws {
        let port = try await closedLoopbackPort()
        let outcome = try await marquee.run(["top-grossing", "--env", "http://127.0.0.1:\(port)/api/"])
        #expect(outcome.status != 0)
        #expect(outcome.standardOutput.isEmpty)
        #expect(outcome.errorLines.count == 1)
        #expect(outcome.standardError.contains("cannot connect to 127.0.0.1:\(port) (connection refused)"))
    }

    @Test("an unknown movie fails with the server's 404 in one line")
    func unknownMovie() async throws {
        let outcome = try await marquee.run(["movie", "4242"])
        #expect(outcome.status != 0)
        #expect(outcome.errorLines == ["marquee: the server answered 404 Not Found: There is no movie with id 4242."])
    }

    @Test("a year with no movies says so")
    func emptyYear() async throws {
        let outcome = try await marquee.run(["top-rated", "--year", "1999"])
        #expect(outcome.status == 0)
        #expect(outcome.standardOutput == "Top rated movies of 1999: no movies.\n(from the network, fetched just now)\n")
    }

    @Test(
        "bad arguments fail with one line and a non-zero status",
        arguments: [
            ["movie", "abc"], ["movie"], ["movie", "--", "-1"], ["top-grossing", "--year", "abc"],
            ["top-grossing", "--year", "0"], ["top-grossing", "--env", "gopher://x"], ["top-grossing", "--bogus"],
            ["no-such-command"], ["serve", "--port", "70000"],
        ]
    )
    func badArguments(arguments: [String]) async throws {
        let outcome = try await marquee.run(arguments)
        #expect(outcome.status != 0)
        #expect(outcome.standardOutput.isEmpty)
        #expect(outcome.errorLines.count == 1, "\(outcome.standardError)")
        #expect(outcome.standardError.hasPrefix("marquee: "))
    }

    @Test("--help works for every command and describes that command", arguments: [
        ([], ["USAGE: marquee <subcommand>", "top-grossing", "top-rated", "browse", "serve", "catalog"]),
        (["top-grossing"], ["OVERVIEW: List the ten highest grossing movies of a year.", "USAGE: marquee top-grossing", "--year <year>", "--offline"]),
        (["top-rated"], ["OVERVIEW: List the ten highest rated movies of a year.", "USAGE: marquee top-rated", "--year <year>"]),
        (["movie"], ["OVERVIEW: Show one movie and its cast.", "USAGE: marquee movie [<options>] <id>"]),
        (["serve"], ["USAGE: marquee serve", "--database <url>", "MARQUEE_DATABASE_URL", "--query-timeout <seconds>", "--signing-keys"]),
        (["catalog", "import"], ["USAGE: marquee catalog import [<file>] [--format <format>] [--tv-movies] [--adult] [--skip-bad-lines] [--bundled] [--replace]", "--format imdb reads a folder of IMDb", "--database <url>", "--query-timeout <seconds>"]),
    ])
    func help(command: [String], fragments: [String]) async throws {
        let outcome = try await marquee.run(command + ["--help"])
        #expect(outcome.status == 0)
        #expect(outcome.standardError.isEmpty)
        for fragment in fragments {
            #expect(outcome.standardOutput.contains(fragment), "\(command): \(fragment)")
        }
    }

}
