import Foundation
import MarqueeTestSupport
import MovieServer
import ServerTestSupport
import Testing

/// What a new user stumbles on, through the CLI: choosing the API once, errors that name their
/// fix, help that tells the truth, and what a script sees in the exit status.
@Suite("A new user's stumbles")
struct NewUserTests {
    let marquee = MarqueeProcess()

    var configFile: URL {
        URL(fileURLWithPath: marquee.environment["XDG_CONFIG_HOME"]!).appendingPathComponent("marquee/config")
    }

    func writeConfig(_ text: String) throws {
        try FileManager.default.createDirectory(at: configFile.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: configFile)
    }

    @Test("MARQUEE_ENV, then the config file's env, choose the API; --env wins; auth status says which and where from")
    func defaultAPI() async throws {
        let fromVariable = try await marquee.run(["top-rated", "--json"], environment: ["MARQUEE_ENV": "stub:noNetwork"])
        #expect(fromVariable.status == 1, "the stub with no network and nothing stored: \(fromVariable.standardError)")
        #expect(fromVariable.standardError.contains("stub.marquee.invalid"))

        try writeConfig("# my default\nenv = stub:success\n")
        let fromFile = try await marquee.run(["top-rated"])
        #expect(fromFile.status == 0, "\(fromFile.standardError)")
        #expect(CommandOutput.rankedRows(fromFile.standardOutput).first?.contains("Zootopia (2016)") == true)
        let variableWins = try await marquee.run(["top-rated", "--policy", "networkOnly"], environment: ["MARQUEE_ENV": "stub:noNetwork"])
        #expect(variableWins.status == 1, "MARQUEE_ENV comes before the file")
        let optionWins = try await marquee.run(["top-rated", "--env", "stub:success", "--policy", "networkOnly"], environment: ["MARQUEE_ENV": "stub:noNetwork"])
        #expect(optionWins.status == 0, "--env comes first: \(optionWins.standardError)")

        let status = try await marquee.run(["auth", "status"])
        #expect(status.standardOutput.hasSuffix("The API is chosen by \(configFile.path).\n"), "\(status.standardOutput)")
        let byVariable = try await marquee.run(["auth", "status"], environment: ["MARQUEE_ENV": "production"])
        #expect(byVariable.standardOutput.hasSuffix("The API is chosen by MARQUEE_ENV.\n"), "\(byVariable.standardOutput)")
        let byOption = try await marquee.run(["auth", "status", "--env", "embedded"])
        #expect(byOption.standardOutput.hasSuffix("The API is chosen by --env.\n"))
    }

    @Test("a bad MARQUEE_ENV or config file is one line naming it")
    func badDefaults() async throws {
        let variable = try await marquee.run(["top-rated"], environment: ["MARQUEE_ENV": "stub:sunny"])
        #expect(variable.status == 1)
        #expect(variable.errorLines == ["marquee: invalid MARQUEE_ENV: unknown stub scenario 'sunny'; use \(["success", "invalidPermissions", "timeout", "noNetwork"].map { "stub:\($0)" }.joined(separator: ", "))"])

        try writeConfig("env = stub:success\ncolour = blue\n")
        let file = try await marquee.run(["top-rated"])
        #expect(file.status == 1)
        #expect(file.errorLines == ["marquee: the config file \(configFile.path) (line 2) cannot be used: unknown setting 'colour'; the settings are env, account, store-budget"])
    }

    @Test("a base URL without /api/ that answers 404 gets a hint")
    func missingAPIPath() async throws {
        try await withMovieServer { server in
            let root = "http://127.0.0.1:\(server.port)/"
            let outcome = try await marquee.run(["top-rated", "--env", root, "--policy", "networkOnly"])
            #expect(outcome.status == 1)
            #expect(outcome.errorLines.count == 1)
            #expect(outcome.standardError.hasSuffix("; is the base URL right? The movie API usually ends in /api/\n"), "\(outcome.standardError)")
        }
    }

    @Test("a refused client id and secret name the variables that set them")
    func refusedClient() async throws {
        try await withMovieServer(auth: AuthConfiguration()) { server in
            let outcome = try await marquee.run(
                ["top-rated", "--env", server.baseURL.absoluteString, "--policy", "networkOnly"],
                environment: ["MARQUEE_CLIENT_ID": "someone", "MARQUEE_CLIENT_SECRET": "wrong-secret"]
            )
            #expect(outcome.status == 1)
            #expect(outcome.errorLines.count == 1)
            #expect(outcome.standardError.contains("401 Unauthorized"))
            #expect(outcome.standardError.contains("set MARQUEE_CLIENT_ID and MARQUEE_CLIENT_SECRET"))
            #expect(!outcome.standardError.contains("wrong-secret"))
        }
    }

    @Test("--timeout bounds an attempt, and the timeout message names it")
    func timeoutOption() async throws {
        let outcome = try await marquee.run(["top-rated", "--env", "stub:timeout", "--policy", "networkOnly", "--timeout", "1"])
        #expect(outcome.status == 1)
        #expect(outcome.errorLines == ["marquee: the server did not answer within 2 s; try again later, or allow longer with --timeout SECONDS"], "twice the attempt's timeout, across the retry")
        let refused = try await marquee.run(["top-rated", "--timeout", "0"])
        #expect(refused.status == 64)
        #expect(refused.errorLines == ["marquee: the timeout must be from 1 to 3600 seconds, not 0 (see 'marquee top-rated --help')"])
    }

    @Test("help lists only what a command accepts, in its own words")
    func truthfulHelp() async throws {
        let browse = try await marquee.run(["browse", "--help"])
        #expect(!browse.standardOutput.contains("--json") && !browse.standardOutput.contains("--trace"))
        #expect(try await marquee.run(["browse", "--json"]).status == 64)
        let status = try await marquee.run(["auth", "status", "--help"])
        #expect(!status.standardOutput.contains("--store"))
        #expect(try await marquee.run(["auth", "status", "--store", "/tmp/x.sqlite"]).status == 64)
        let movie = try await marquee.run(["movie", "--help"])
        #expect(!movie.standardOutput.contains("Print the movies"))
        #expect(movie.standardOutput.contains("Print the answer as JSON"))

        let maxAge = try await marquee.run(["top-rated", "--max-age", "60"])
        #expect(maxAge.status == 64)
        #expect(maxAge.errorLines == ["marquee: --max-age is for --policy cacheElseNetwork; the networkElseCache policy does not use it (see 'marquee top-rated --help')"])
        #expect(try await marquee.run(["top-rated", "--env", "stub:success", "--max-age", "60", "--policy", "cacheElseNetwork"]).status == 0)
        for level in ["debug", "trace"] {
            #expect(try await marquee.run(["top-rated", "--log-level", level]).status == 64, "\(level) shows nothing info does not")
        }
    }

    @Test("an answer from the store because the network failed: exit 0 with a warning line, or 3 with --fail-on-stale; JSON stays pure")
    func staleExitStatus() async throws {
        _ = try await marquee.run(["top-rated", "--env", "stub:success"])
        let stale = try await marquee.run(["top-rated", "--env", "stub:timeout"])
        #expect(stale.status == 0)
        #expect(CommandOutput.rankedRows(stale.standardOutput).count == 10)
        #expect(stale.errorLines.count == 1)
        #expect(stale.errorLines.first?.hasPrefix("marquee: warning: the answer shown is stored, not fresh: from the local store, fetched") == true, "\(stale.standardError)")

        let strict = try await marquee.run(["top-rated", "--env", "stub:noNetwork", "--fail-on-stale", "--json"])
        #expect(strict.status == 3)
        let answer = try JSONSerialization.jsonObject(with: Data(strict.standardOutput.utf8)) as? [String: Any]
        #expect(answer?["source"] as? String == "store")
        #expect(strict.errorLines.count == 1)
        #expect(strict.errorLines.first?.hasPrefix("marquee: note: from the local store") == true)

        let fresh = try await marquee.run(["top-rated", "--env", "stub:success", "--fail-on-stale"])
        #expect(fresh.status == 0)
        #expect(fresh.standardError.isEmpty)
    }
}

/// `--version`, a mistyped command, completion, `generate-catalog`'s output, `--curl`'s notes,
/// and a credentials file others could read.
@Suite("What every CLI has")
struct EveryCLITests {
    let marquee = MarqueeProcess()

    @Test("--version names the release and the store schema")
    func version() async throws {
        let outcome = try await marquee.run(["--version"])
        #expect(outcome.status == 0)
        #expect(outcome.standardOutput.wholeMatch(of: #/marquee \d+\.\d+\.\d+ \(movie store schema \d+\)\n/#) != nil, "\(outcome.standardOutput)")
    }

    @Test("a mistyped command gets a suggestion; an unknown one the list of commands", arguments: [
        ("top-grosing", "did you mean 'top-grossing'?"), ("brows", "did you mean 'browse'?"), ("top-rate", "did you mean 'top-rated'?"),
        ("xyzzy", "the commands are top-grossing, top-rated, movie, search, movies, browse, watch, watchlist, sync, rate, ratings, watched, diary, lists, list, login, logout, auth, cache, serve, accounts, catalog, generate-catalog"),
    ])
    func suggestion(typed: String, advice: String) async throws {
        let outcome = try await marquee.run([typed, "--year", "2016"])
        #expect(outcome.status == 64)
        #expect(outcome.errorLines == ["marquee: unknown command '\(typed)'; \(advice) (see 'marquee --help')"])
    }

    @Test("an unknown command with --help is the unknown-command error, not the root help", arguments: [["signin", "--help"], ["signin", "-h"], ["logn", "--version"]])
    func unknownCommandWithHelp(arguments: [String]) async throws {
        let outcome = try await marquee.run(arguments)
        #expect(outcome.status == 64)
        #expect(outcome.standardOutput.isEmpty)
        #expect(outcome.errorLines.count == 1)
        #expect(outcome.errorLines.first?.hasPrefix("marquee: unknown command '\(arguments[0])'") == true, "\(outcome.standardError)")
    }

    @Test("help for a command still works", arguments: [["help", "serve"], ["serve", "--help"]])
    func helpForACommand(arguments: [String]) async throws {
        let outcome = try await marquee.run(arguments)
        #expect(outcome.status == 0)
        #expect(outcome.standardOutput.hasPrefix("OVERVIEW: Serve the movie API"))
    }

    @Test("a negative number for a numeric option is that option's range error, not a missing value", arguments: [
        (["serve", "--cache-size", "-1"], "the response cache size must be from 1 to 65536 MiB, not -1"),
        (["top-grossing", "--year", "-5"], "the year must be from 1 to 9999, not -5"),
        (["search", "zoe", "--limit", "-1"], "the limit must be from 1 to 100, not -1"),
    ])
    func negativeNumbers(arguments: [String], message: String) async throws {
        let outcome = try await marquee.run(arguments)
        #expect(outcome.status == 64)
        #expect(outcome.errorLines == ["marquee: \(message) (see 'marquee \(arguments[0]) --help')"], "\(outcome.standardError)")
    }

    @Test("the shell completion script names the commands and their options")
    func completion() async throws {
        let outcome = try await marquee.run(["--generate-completion-script", "bash"])
        #expect(outcome.status == 0)
        for word in ["top-grossing", "--fail-on-stale", "--env"] {
            #expect(outcome.standardOutput.contains(word))
        }
    }

    @Test("generate-catalog writes - to standard output, and replaces a file only with --force")
    func generateCatalog() async throws {
        let piped = try await marquee.run(["generate-catalog", "--movies", "3", "--output", "-"])
        #expect(piped.status == 0)
        let movies = try JSONSerialization.jsonObject(with: Data(piped.standardOutput.utf8)) as? [[String: Any]]
        #expect(movies?.count == 3)
        #expect(!FileManager.default.fileExists(atPath: "-"))

        let file = TestFolders.temporary.appendingPathComponent("catalog-\(UUID().uuidString).json")
        try Data("keep me".utf8).write(to: file)
        let refused = try await marquee.run(["generate-catalog", "--movies", "3", "--output", file.path])
        #expect(refused.status == 1)
        #expect(refused.errorLines == ["marquee: \(file.path) exists; give --force to replace it, or another --output"])
        #expect(try Data(contentsOf: file) == Data("keep me".utf8))
        let forced = try await marquee.run(["generate-catalog", "--movies", "3", "--output", file.path, "--force"])
        #expect(forced.status == 0)
        #expect(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) is [Any])
    }

    @Test("--curl says how to get a token for the placeholder (a command that works), and that the embedded server's port is gone afterwards")
    func curlNotes() async throws {
        let embedded = try await marquee.run(["top-grossing", "--curl", "--policy", "networkOnly"])
        #expect(embedded.status == 0)
        #expect(embedded.errorLines.contains { $0.hasPrefix("# http://127.0.0.1:") && $0.hasSuffix("is the embedded server of this run: it stops when marquee exits. To replay these commands, run 'marquee serve' and use its address instead.") })

        try await withMovieServer(auth: AuthConfiguration()) { server in
            let run = try await marquee.run(["top-rated", "--env", server.baseURL.absoluteString, "--curl", "--policy", "networkOnly"])
            #expect(run.status == 0)
            let note = try #require(run.errorLines.first { $0.hasPrefix("# ${MARQUEE_ACCESS_TOKEN} is the access_token of: ") })
            #expect(!run.errorLines.contains { $0.contains("embedded server") })
            let command = String(note.dropFirst("# ${MARQUEE_ACCESS_TOKEN} is the access_token of: ".count))
            let shell = try await MarqueeProcess.run(
                URL(fileURLWithPath: "/bin/sh"), ["-c", command],
                environment: ["PATH": "/usr/bin:/bin", "MARQUEE_CLIENT_ID": "marquee-dev", "MARQUEE_CLIENT_SECRET": "marquee-dev-secret"]
            )
            #expect(shell.status == 0, "\(shell.standardError)")
            let answer = try JSONSerialization.jsonObject(with: Data(shell.standardOutput.utf8)) as? [String: Any]
            #expect(answer?["access_token"] is String, "the printed command gets a token")
        }
    }

    @Test("a credentials file others can read is made private, with a warning naming it")
    func privateCredentials() async throws {
        try await withMovieServer(auth: AuthConfiguration()) { server in
            let home = try TemporaryConfigHome()
            let api = server.baseURL.absoluteString
            #expect(try await home.marquee.run(["top-rated", "--env", api]).status == 0)
            chmod(home.credentialsFile.path, 0o644)
            let outcome = try await home.marquee.run(["top-rated", "--env", api])
            #expect(outcome.status == 0)
            #expect(outcome.errorLines == ["marquee: warning: the credentials file \(home.credentialsFile.path) could be read by other users (mode 644); it is now readable by its owner only (600)"])
            let mode = try FileManager.default.attributesOfItem(atPath: home.credentialsFile.path)[.posixPermissions] as? NSNumber
            #expect(mode?.intValue == 0o600)
            #expect(server.grants == GrantLedger.Counts(clientCredentials: 1), "the credential was still used")
        }
    }
}

/// What `catalog import` says when it is done, in words that count.
@Suite("Import summary")
struct ImportSummaryTests {
    @Test("importing one movie says 'Imported 1 movie', not '1 movies'")
    func singular() async throws {
        let marquee = MarqueeProcess()
        let folder = TestFolders.temporary.appendingPathComponent("import-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let catalog = folder.appendingPathComponent("one.json").path
        #expect(try await marquee.run(["generate-catalog", "--movies", "1", "--output", catalog]).status == 0)
        let imported = try await marquee.run(["catalog", "import", catalog, "--database", folder.appendingPathComponent("movies.sqlite").path])
        #expect(imported.status == 0, "\(imported.standardError)")
        #expect(imported.standardOutput.hasPrefix("Imported 1 movie from \(catalog) into "), "\(imported.standardOutput)")
    }
}
