import Foundation
import Hummingbird
import MarqueeTestSupport
import ServerTestSupport
import Testing

/// `marquee search` and `marquee movies` through the app: online, offline from the store,
/// against a server without search, and every page.
@Suite("Search through the app")
struct SearchCommandTests {
    let marquee = MarqueeProcess()

    @Test("a search finds by a prefix and an accent-free word, stores what it found, and offline finds it again, saying so")
    func onlineThenOffline() async throws {
        let online = try await marquee.run(["search", "zoot", "--json"])
        #expect(online.status == 0, "\(online.standardError)")
        let answer = try JSONSerialization.jsonObject(with: Data(online.standardOutput.utf8)) as? [String: Any]
        #expect(answer?["source"] as? String == "network")
        #expect((answer?["movies"] as? [[String: Any]])?.map { $0["name"] as? String } == ["Zootopia"])

        let offline = try await marquee.run(["search", "ZOOTOPIA", "--offline"])
        #expect(offline.status == 0, "\(offline.standardError)")
        #expect(CommandOutput.rankedRows(offline.standardOutput).first?.contains("Zootopia (2016)") == true)
        #expect(offline.standardOutput.contains("(searched 1 stored movie offline — not the server's results)"), "\(offline.standardOutput)")

        let json = try await marquee.run(["search", "zoo", "--offline", "--json"])
        let stored = try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any]
        #expect(stored?["source"] as? String == "store")
        #expect(stored?["searched"] as? Int == 1)
    }

    @Test("against the original static site, which has no search, the store is searched and the answer says the server has none")
    func serverWithoutSearch() async throws {
        let site = ReferenceSiteServer()
        try await site.run { url in
            let api = url.absoluteString
            #expect(try await marquee.run(["top-rated", "--env", api]).status == 0)
            let outcome = try await marquee.run(["search", "dory", "--env", api])
            #expect(outcome.status == 0, "\(outcome.standardError)")
            #expect(CommandOutput.rankedRows(outcome.standardOutput).first?.contains("Finding Dory (2016)") == true)
            #expect(outcome.standardOutput.contains("(searched 10 stored movies offline — not the server's results; the server has no search (404))"), "\(outcome.standardOutput)")
        }
    }

    @Test("movies --all walks every page: each movie of the year once, in the server's order")
    func everyPage() async throws {
        let paged = try await marquee.run(["movies", "--year", "2016", "--sort", "rating", "--limit", "3", "--all", "--json"])
        #expect(paged.status == 0, "\(paged.standardError)")
        let whole = try await marquee.run(["movies", "--year", "2016", "--sort", "rating", "--limit", "100", "--json"])
        func ids(_ outcome: MarqueeProcess.Outcome) throws -> [Int] {
            let answer = try JSONSerialization.jsonObject(with: Data(outcome.standardOutput.utf8)) as? [String: Any]
            return (answer?["movies"] as? [[String: Any]])?.compactMap { $0["id"] as? Int } ?? []
        }
        #expect(try ids(paged).count > 3, "more than one page")
        #expect(try ids(paged) == ids(whole))

        let first = try await marquee.run(["movies", "--year", "2016", "--limit", "3"])
        #expect(first.errorLines.last == "marquee: more movies match: give --all (a cursor of the embedded server lasts one run)", "\(first.standardError)")
        try await withMovieServer { server in
            let api = server.baseURL.absoluteString
            let page = try await marquee.run(["movies", "--year", "2016", "--limit", "3", "--env", api])
            let line = try #require(page.errorLines.last)
            #expect(line.hasPrefix("marquee: more movies match: give --all, or --cursor "), "\(page.standardError)")
            let cursor = String(line.dropFirst("marquee: more movies match: give --all, or --cursor ".count).prefix { $0 != " " })
            let next = try await marquee.run(["movies", "--year", "2016", "--limit", "3", "--env", api, "--cursor", cursor])
            #expect(next.status == 0, "\(next.standardError)")
            #expect(CommandOutput.rankedRows(next.standardOutput).count == 3)
            #expect(CommandOutput.rankedRows(next.standardOutput).first != CommandOutput.rankedRows(page.standardOutput).first, "the next page, not the first again")
            #expect(CommandOutput.rankedRows(next.standardOutput).map { $0.split(separator: " ").first } == ["4", "5", "6"], "the next page's rows go on from the first's: \(next.standardOutput)")
        }
    }

    @Test("a walk refused midway (a 400) prints the pages read, ends with the server's error, non-zero, and never searches the store instead")
    func walkRefusedMidway() async throws {
        let page = #"{"movies":[{"name":"Only Page","id":42,"year":2016,"releaseDate":"2016-03-25","grossing":1,"rating":66,"cast":[{"name":"Ann Lee"}]}],"next":"second"}"#
        let refusal = #"{"error":"invalid_request","error_description":"The cursor is not one this server made."}"#
        try await withLoopbackServer({ router in
            router.get("api/movies") { request, _ -> Response in
                let refused = request.uri.query?.contains("cursor=") == true
                return Response(
                    status: refused ? .badRequest : .ok, headers: [.contentType: "application/json"],
                    body: .init(byteBuffer: ByteBuffer(string: refused ? refusal : page))
                )
            }
        }) { server in
            let outcome = try await marquee.run(["movies", "--sort", "title", "--limit", "1", "--all", "--env", server.baseURL.absoluteString])
            #expect(outcome.status == 1, "\(outcome.standardError)")
            #expect(CommandOutput.rankedRows(outcome.standardOutput).first?.contains("Only Page (2016)") == true, "\(outcome.standardOutput)")
            #expect(outcome.standardOutput.contains("stopped early: the server answered 400 Bad Request"), "\(outcome.standardOutput)")
            #expect(!outcome.standardOutput.contains("offline"), "\(outcome.standardOutput)")
            #expect(outcome.errorLines.last == "marquee: stopped before the end: the server answered 400 Bad Request: The cursor is not one this server made.", "\(outcome.standardError)")
        }
    }

    @Test("a first page refused (a 400) is the error, non-zero, not an offline search")
    func firstPageRefused() async throws {
        try await withLoopbackServer({ router in
            router.get("api/movies") { _, _ -> Response in
                Response(status: .badRequest, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: #"{"error":"invalid_request","error_description":"No."}"#)))
            }
        }) { server in
            let outcome = try await marquee.run(["search", "zoe", "--env", server.baseURL.absoluteString])
            #expect(outcome.status == 1)
            #expect(outcome.standardOutput.isEmpty, "\(outcome.standardOutput)")
            #expect(outcome.errorLines == ["marquee: the server answered 400 Bad Request: No."], "\(outcome.standardError)")
        }
    }

    @Test("bad search options are one line and status 64")
    func badOptions() async throws {
        for arguments in [["search", " "], ["search", "x", "--limit", "0"], ["movies", "--sort", "relevance"], ["search", "x", "--all", "--cursor", "abc"], ["movies", "--year", "0"]] {
            let outcome = try await marquee.run(arguments)
            #expect(outcome.status == 64, "\(arguments)")
            #expect(outcome.errorLines.count == 1, "\(arguments): \(outcome.standardError)")
        }
    }

    @Test("a cursor offline is refused with one line, not answered with the first page again", arguments: [
        ["search", "zoo", "--offline", "--cursor", "abc"], ["movies", "--policy", "cacheOnly", "--cursor", "abc"],
    ])
    func cursorOffline(arguments: [String]) async throws {
        let outcome = try await marquee.run(arguments)
        #expect(outcome.status == 64)
        #expect(outcome.standardOutput.isEmpty)
        #expect(outcome.errorLines == ["marquee: --cursor pages the server's results and an offline answer comes whole: leave out --cursor, or give --all or a larger --limit (see 'marquee \(arguments[0]) --help')"], "\(outcome.standardError)")
    }

    @Test("an offline page that holds fewer than the stored matches says more match, and how to see them; a page that holds them all does not")
    func offlinePageSaysMoreMatch() async throws {
        #expect(try await marquee.run(["movies", "--limit", "100"]).status == 0)
        let page = try await marquee.run(["movies", "--sort", "title", "--limit", "4", "--offline"])
        #expect(page.status == 0, "\(page.standardError)")
        #expect(CommandOutput.rankedRows(page.standardOutput).count == 4)
        #expect(page.errorLines.last == "marquee: more stored movies match: give --all to see them all (offline there is no next page to ask for)", "\(page.standardError)")
        let whole = try await marquee.run(["movies", "--sort", "title", "--limit", "10", "--offline"])
        #expect(CommandOutput.rankedRows(whole.standardOutput).count == 10)
        #expect(!whole.standardError.contains("more stored movies match"), "\(whole.standardError)")
    }

    @Test("the words of a search are at most 200 code points: combining marks count")
    func searchLengthInCodePoints() async throws {
        let outcome = try await marquee.run(["search", "a" + String(repeating: "\u{301}", count: 200), "--offline"])
        #expect(outcome.status == 64)
        #expect(outcome.errorLines.count == 1)
    }
}
