import Foundation
import MarqueeTestSupport
import MovieServer
import ServerTestSupport
import Testing

/// What the command line says when it is used wrongly, and how it lists itself.
@Suite("The command line's words", .timeLimit(.minutes(3)))
struct CommandLineWordsTests {
    let marquee = MarqueeProcess()

    @Test("a negative or bad movie id is one line and status 64, for movie, watch add and watch remove, rate, watched and list add")
    func badIDs() async throws {
        let rule = "ids are whole numbers of 0 or more, as in the Id column of every list"
        for (arguments, help) in [
            (["movie", "-3"], "marquee movie --help"), (["watch", "add", "-3"], "marquee watch add --help"),
            (["watch", "remove", "-12", "--offline"], "marquee watch remove --help"), (["movie", "--env", "stub:success", "-3"], "marquee movie --help"),
            (["rate", "-3", "7"], "marquee rate --help"), (["watched", "-3"], "marquee watched --help"), (["list", "add", "Noir", "-3"], "marquee list add --help"),
        ] {
            let outcome = try await marquee.run(arguments)
            #expect(outcome.status == 64, "\(arguments)")
            let negative = try #require(arguments.first { $0.hasPrefix("-") && Int($0) != nil })
            #expect(outcome.errorLines == ["marquee: '\(negative)' is not a movie id: \(rule) (see '\(help)')"], "\(arguments): \(outcome.standardError)")
        }
        let word = try await marquee.run(["movie", "abc"])
        #expect(word.status == 64)
        #expect(word.errorLines == ["marquee: the value 'abc' is invalid for '<id>': \(rule) (see 'marquee movie --help')"])
    }

    @Test("a cache policy is refused by the commands that ask no cached question, in one line")
    func policyRefused() async throws {
        let watchlist = try await marquee.run(["watchlist", "--policy", "networkElseCache", "--env", "stub:success"])
        #expect(watchlist.status == 64)
        #expect(watchlist.errorLines.first?.hasPrefix("marquee: 'watchlist' takes no --policy networkElseCache: it shows the list stored here") == true, "\(watchlist.standardError)")
        for arguments in [["sync", "--policy", "cacheOnly"], ["watch", "add", "6", "--policy", "networkOnly"], ["watch", "remove", "6", "--max-age", "5", "--policy", "cacheElseNetwork"]] {
            let outcome = try await marquee.run(arguments + ["--env", "stub:success"])
            #expect(outcome.status == 64, "\(arguments)")
            #expect(outcome.errorLines.count == 1 && outcome.errorLines[0].contains("takes no --policy"), "\(arguments): \(outcome.standardError)")
        }
        #expect(try await marquee.run(["watchlist", "--env", "stub:success"]).status == 0)
        #expect(try await marquee.run(["top-rated", "--policy", "networkElseCache", "--env", "stub:success"]).status == 0)
    }

    @Test("-v is --verbose: the request log on standard error")
    func shortVerbose() async throws {
        let outcome = try await marquee.run(["top-rated", "--env", "stub:success", "-v"])
        #expect(outcome.status == 0)
        #expect(outcome.errorLines.contains { $0.hasPrefix("marquee: info: GET ") && $0.contains("/api/movies/topRated/2016 → 200 OK") }, "\(outcome.standardError)")
    }

    @Test("--help lists the commands in groups, in the order a person meets them, each once")
    func helpGroups() async throws {
        let help = try await marquee.run(["--help"]).standardOutput
        let headings = help.split(separator: "\n").filter { $0.hasSuffix("SUBCOMMANDS:") }.map(String.init)
        #expect(headings == ["MOVIES SUBCOMMANDS:", "WATCHLIST SUBCOMMANDS:", "SHELF SUBCOMMANDS:", "SIGNING IN SUBCOMMANDS:", "LOCAL STORE SUBCOMMANDS:", "SERVER SUBCOMMANDS:"])
        let listed = help.split(separator: "\n").compactMap { line in line.firstMatch(of: #/^  ([a-z][a-z-]*)  /#).map { String($0.1) } }
        #expect(listed == ["top-grossing", "top-rated", "movie", "search", "movies", "browse", "watch", "watchlist", "sync", "rate", "ratings", "watched", "diary", "lists", "list", "login", "logout", "auth", "cache", "serve", "accounts", "catalog", "generate-catalog"])
    }

    @Test("a wrong base URL: the server's sentence and the hint without a doubled stop")
    func wrongBaseURL() async throws {
        try await withMovieServer { server in
            let outcome = try await marquee.run(["top-rated", "--env", "http://127.0.0.1:\(server.port)/"])
            #expect(outcome.status == 1)
            #expect(outcome.errorLines == ["marquee: the server answered 404 Not Found: There is no resource at /movies/topRated/2016; is the base URL right? The movie API usually ends in /api/"])
        }
    }

    @Test("a code that lasts 8 s is said to expire in 8 seconds, not 0 minutes")
    func shortCode() async throws {
        var auth = LoginFlow.auth()
        auth.deviceCodeLifetime = .seconds(8)
        try await withMovieServer(auth: auth) { server in
            let login = try marquee.launch(["login", "--env", server.baseURL.absoluteString])
            defer { login.send(SIGKILL) }
            #expect(await login.nextOutputLine(containing: "Waiting for the approval") == "Waiting for the approval; the code expires in 8 seconds. Ctrl-C stops.")
            #expect(await login.signal(SIGINT) != 0)
        }
    }
}
