import Foundation
import GRDB
import MarqueeTestSupport
import MovieServer
import MovieServerDatabases
import NetworkTestSupport
import PostgresNIO
import ServerTestSupport
import Testing

/// `marquee serve --database` and `marquee catalog import` as separate processes, on a SQLite
/// file and on a throwaway PostgreSQL cluster.
@Suite("Serving from a database", .postgresCluster)
struct ServerDatabaseCommandTests {
    let marquee = MarqueeProcess()

    enum Kind: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case sqlite
        case postgres

        var testDescription: String { rawValue }

        func makeDatabase() async throws -> String {
            switch self {
            case .sqlite: TestFolders.temporary.appendingPathComponent("marquee-serve-\(UUID().uuidString).sqlite").path
            case .postgres: try await PostgresCluster.required().makeDatabase()
            }
        }
    }

    @Test("a client signed in before a restart renews with its refresh token after it: a refresh grant, no new sign-in", arguments: Kind.allCases)
    func restartKeepsClientsSignedIn(kind: Kind) async throws {
        let database = try await kind.makeDatabase()
        try await importReferenceCatalog(into: database)
        let (first, port) = try await serve(database)
        let env = "http://127.0.0.1:\(port)/api/"
        let signedIn = try await marquee.run(["top-grossing", "--year", "2016", "--env", env])
        #expect(signedIn.status == 0, "\(signedIn.standardError)")
        #expect(signedIn.standardOutput.contains("Finding Dory (2016)"))
        let before = PrometheusText(try await LoopbackHTTP.send(port: port, "/metrics").body)
        #expect(before.value("marquee_token_grants_total", ["grant_type": "client_credentials"]) == 1)
        #expect(await first.signal(SIGTERM) == 0)

        let (second, samePort) = try await serve(database, port: port)
        try await finally(try await {
            #expect(samePort == port)
            let renewed = try await marquee.run(["top-rated", "--year", "2016", "--env", env])
            #expect(renewed.status == 0, "\(renewed.standardError)")
            #expect(renewed.standardOutput.contains("Zootopia (2016)"))
            let after = PrometheusText(try await LoopbackHTTP.send(port: port, "/metrics").body)
            #expect(after.value("marquee_token_grants_total", ["grant_type": "refresh_token"]) == 1)
            #expect(after.value("marquee_token_grants_total", ["grant_type": "client_credentials"]) == nil)
        }()) { _ = await second.signal(SIGTERM) }
    }

    @Test("SIGTERM: ready turns 503 while the server still answers, the listener closes, the slow request in flight completes, exit 0")
    func drainsOnSIGTERM() async throws {
        let cluster = try PostgresCluster.required()
        let database = try await cluster.makeDatabase()
        try await importReferenceCatalog(into: database)
        // A drain of 10 s: the test must see the 503 before the listener closes, on a loaded machine too.
        let (server, port) = try await serveWithSearchIndex(database, extra: ["--public", "--drain-delay", "10", "--shutdown-timeout", "60", "--query-timeout", "120"])
        try await cluster.withSession(on: database) { session in
            try await session.query("BEGIN", logger: quietLogger)
            try await session.query("LOCK TABLE movie IN ACCESS EXCLUSIVE MODE", logger: quietLogger)
            let inFlight = Task { try await LoopbackHTTP.send(port: port, "/api/movies/7", timeout: .seconds(90)) }
            #expect(try await eventually { try await Self.queriesWaitingForLocks(session) == 1 })

            server.send(SIGTERM)
            #expect(try await eventually {
                guard let ready = try? await LoopbackHTTP.send(port: port, "/health/ready") else { return false }
                return ready.status == 503 && ready.text.contains(#""draining""#)
            })
            #expect(try await eventually { await !Self.accepts(port: port) }, "the listener closes after the drain delay")
            #expect(server.isRunning, "the server waits for the request in flight")

            try await session.query("COMMIT", logger: quietLogger)
            let answer = try await inFlight.value
            #expect(answer.status == 200)
            #expect(answer.text.contains(#""id":7"#))
        }
        #expect(await server.waitForExit() == 0)
    }

    @Test("--shutdown-timeout running out: a request still waiting for the database is cut off and the server exits")
    func shutdownTimeoutRunsOut() async throws {
        let cluster = try PostgresCluster.required()
        let database = try await cluster.makeDatabase()
        try await importReferenceCatalog(into: database)
        let (server, port) = try await serveWithSearchIndex(database, extra: ["--public", "--shutdown-timeout", "2", "--query-timeout", "120"])
        try await cluster.withSession(on: database) { session in
            try await session.query("BEGIN", logger: quietLogger)
            try await session.query("LOCK TABLE movie IN ACCESS EXCLUSIVE MODE", logger: quietLogger)
            let inFlight = Task { try await LoopbackHTTP.send(port: port, "/api/movies/7", timeout: .seconds(90)) }
            #expect(try await eventually { try await Self.queriesWaitingForLocks(session) == 1 })
            let stopping = ContinuousClock.now
            server.send(SIGTERM)
            let status = await server.waitForExit(within: .seconds(60))
            let took = ContinuousClock.now - stopping
            #expect(took < .seconds(30), "the server gave up on the request after its shutdown timeout: \(took)")
            #expect(status != 0 || took >= .seconds(2), "exit \(status) after \(took)")
            let answer = try? await inFlight.value
            #expect(answer?.status != 200, "the request in flight was cut off, not answered")
            #expect(try await Self.queriesWaitingForLocks(session) <= 1, "the server asked nothing more of the locked table as it stopped")
            try await session.query("ROLLBACK", logger: quietLogger)
        }
    }

    @Test("--query-timeout: a request that waits longer for PostgreSQL is a JSON 503 while the lock is still held; after it, 200 again")
    func queryTimeout() async throws {
        let cluster = try PostgresCluster.required()
        let database = try await cluster.makeDatabase()
        try await importReferenceCatalog(into: database)
        let (server, port) = try await serve(database, extra: ["--public", "--query-timeout", "1"])
        try await finally(try await {
            try await cluster.withSession(on: database) { session in
                try await session.query("BEGIN", logger: quietLogger)
                try await session.query("LOCK TABLE movie IN ACCESS EXCLUSIVE MODE", logger: quietLogger)
                let waited = try await LoopbackHTTP.send(port: port, "/api/movies/7", timeout: .seconds(60))
                #expect(waited.status == 503)
                #expect(waited.text.contains(#""error":"temporarily_unavailable""#), "\(waited.text)")
                try await session.query("COMMIT", logger: quietLogger)
            }
            let answered = try await LoopbackHTTP.send(port: port, "/api/movies/7", timeout: .seconds(60))
            #expect(answered.status == 200)
        }()) { _ = await server.signal(SIGTERM) }
    }

    @Test("100,000 movies import; importing them again changes nothing; a file with one bad entry changes nothing and names it", arguments: Kind.allCases)
    func importsLargeCatalogs(kind: Kind) async throws {
        let database = try await kind.makeDatabase()
        let file = temporaryFile("catalog-100k.json")
        defer { try? FileManager.default.removeItem(at: file) }
        let generated = try await marquee.run(["generate-catalog", "--movies", "100000", "--seed", "7", "--output", file.path])
        #expect(generated.status == 0, "\(generated.standardError)")

        let first = try await marquee.run(["catalog", "import", file.path, "--database", database], timeLimit: .seconds(600))
        #expect(first.status == 0, "\(first.standardError)")
        #expect(first.standardOutput.contains("100000 added, 0 changed, 0 unchanged"))
        let storage = try await DatabaseLocation(parsing: database).open(logger: quietLogger)
        let (version, sample) = try await finally(try await (storage.catalogVersion(), storage.movie(id: 54_321))) { await storage.close() }
        #expect(version == 1)
        #expect(sample != nil)

        let again = try await marquee.run(["catalog", "import", file.path, "--database", database], timeLimit: .seconds(600))
        #expect(again.status == 0, "\(again.standardError)")
        #expect(again.standardOutput.contains("0 added, 0 changed, 100000 unchanged"))

        var movies = SyntheticCatalog.movies(count: 1000, seed: 8).map { movie in
            var movie = movie
            movie.id += 200_000
            return movie
        }
        movies[617].releaseDate = "2016-13-45"
        let bad = temporaryFile("catalog-bad.json")
        defer { try? FileManager.default.removeItem(at: bad) }
        try JSONEncoder().encode(movies).write(to: bad)
        let refused = try await marquee.run(["catalog", "import", bad.path, "--database", database])
        #expect(refused.status == 1)
        #expect(refused.errorLines.count == 1, "\(refused.standardError)")
        #expect(refused.standardError.contains("has an invalid movie at index 617"))

        let reopened = try await DatabaseLocation(parsing: database).open(logger: quietLogger)
        let (after, added) = try await finally(try await (reopened.catalogVersion(), reopened.movie(id: 200_001))) { await reopened.close() }
        #expect(after == 1, "neither the re-import nor the refused file changed the catalog")
        #expect(added == nil)
    }

    @Test("another program's tables, or a schema a newer Marquee wrote, are refused with one line and left as they were", arguments: Kind.allCases)
    func refusesForeignAndNewerSchemas(kind: Kind) async throws {
        let foreign = try await kind.makeDatabase()
        try await execute("CREATE TABLE users (id INTEGER PRIMARY KEY)", on: foreign, kind: kind)
        let file = temporaryFile("reference.json")
        defer { try? FileManager.default.removeItem(at: file) }
        try JSONEncoder().encode(try Catalog.reference().movies).write(to: file)
        for arguments in [["serve", "--port", "0", "--database", foreign], ["catalog", "import", file.path, "--database", foreign]] {
            let outcome = try await marquee.run(arguments)
            #expect(outcome.status != 0)
            #expect(outcome.errorLines.count == 1, "\(arguments): \(outcome.standardError)")
            #expect(outcome.standardError.contains("is not a Marquee server database: it holds other tables (users) and no Marquee schema"),
                    "\(arguments): \(outcome.standardError)")
        }
        #expect(try await tables(of: foreign, kind: kind) == ["users"], "nothing was created beside the foreign table")

        let newer = try await kind.makeDatabase()
        try await importReferenceCatalog(into: newer)
        let steps = kind == .postgres ? "marquee_schema_migration (name)" : "grdb_migrations (identifier)"
        try await execute("INSERT INTO \(steps) VALUES ('server-v99-future')", on: newer, kind: kind)
        let refused = try await marquee.run(["serve", "--port", "0", "--database", newer])
        #expect(refused.status != 0)
        #expect(refused.errorLines.count == 1, "\(refused.standardError)")
        #expect(refused.standardError.contains("newer Marquee"), "\(refused.standardError)")
    }

    @Test("MARQUEE_DATABASE_URL names the database when --database is not given; with neither, one line says what to do")
    func readsTheDatabaseFromTheEnvironment() async throws {
        let database = try await Kind.postgres.makeDatabase()
        let file = temporaryFile("reference.json")
        defer { try? FileManager.default.removeItem(at: file) }
        try JSONEncoder().encode(try Catalog.reference().movies).write(to: file)
        let imported = try await marquee.run(["catalog", "import", file.path], environment: ["MARQUEE_DATABASE_URL": database])
        #expect(imported.status == 0, "\(imported.standardError)")
        #expect(imported.standardOutput.contains("10 added"))
        let missing = try await marquee.run(["catalog", "import", file.path], environment: ["MARQUEE_DATABASE_URL": ""])
        #expect(missing.status != 0)
        #expect(missing.standardError == "marquee: no database is named: give --database URL, or set MARQUEE_DATABASE_URL\n")

        var environment = marquee
        environment.environment["MARQUEE_DATABASE_URL"] = database
        let server = try environment.launch(["serve", "--port", "0"])
        let serving = await server.nextErrorLine(containing: "serving from")
        _ = await server.signal(SIGTERM)
        #expect(serving?.contains("PostgreSQL database") == true, "\(serving ?? server.lastOutput)")
    }

    @Test("on a terminal, the import draws a progress bar and erases it when done; through a pipe it draws nothing")
    func importProgress() async throws {
        let file = temporaryFile("catalog-50k.json")
        let typescript = temporaryFile("import-terminal.log")
        let database = try await Kind.sqlite.makeDatabase()
        defer {
            try? FileManager.default.removeItem(at: file)
            try? FileManager.default.removeItem(at: typescript)
        }
        try JSONEncoder().encode(SyntheticCatalog.movies(count: 50_000, seed: 11)).write(to: file)
        // script(1) records every byte the terminal gets, so a bar drawn and erased between two
        // looks at the screen (a loaded machine looks seldom) is still seen.
        let importing = "'\(marquee.executable.path)' catalog import '\(file.path)' --database '\(database)' --batch-size 50"
        let script = "script -q -e -c \"\(importing)\" '\(typescript.path)'; echo \"exit $?\"; sleep 60"
        let terminal = try await TmuxTerminal.start(command: script, environment: marquee.environment, width: 120, height: 10)
        defer { terminal.kill() }
        let done = try await terminal.waitForText("exit ", timeLimit: .seconds(120))
        #expect(done.contains { $0.contains("Imported 50000 movies") })
        #expect(done.contains { $0 == "exit 0" })
        #expect(!done.contains { $0.contains("/50000 movies") }, "the bar is erased: \(done)")
        let drawn = String(decoding: try Data(contentsOf: typescript), as: UTF8.self)
        #expect(drawn.contains("\r[#") && drawn.contains("/50000 movies"), "a bar was drawn: \(drawn.suffix(300))")
        #expect(drawn.contains("\r\u{1B}[K"), "and erased")

        let piped = try await marquee.run(["catalog", "import", file.path, "--database", try await Kind.sqlite.makeDatabase(), "--batch-size", "50"])
        #expect(piped.status == 0)
        #expect(!piped.standardError.contains("/50000 movies"))
        #expect(!piped.standardError.contains("\u{1B}"))
    }

    @Test("bad database arguments and key files fail with one line that never shows a password or a secret")
    func refusesBadConfiguration() async throws {
        let cases: [([String], String)] = [
            (["serve", "--database", "mysql://root@127.0.0.1/movies"], "'mysql' databases are not supported"),
            (["serve", "--database", "postgres://marquee:hunter2@127.0.0.1:1/movies"], "cannot reach PostgreSQL database 'movies' at 127.0.0.1:1 as marquee (connection refused)"),
            (["serve", "--database", "postgres://marquee:hunter2@127.0.0.1:99999/movies"], "the port must be from 1 to 65535"),
            (["serve", "--database", TestFolders.temporary.path], "it is a folder"),
            (["serve", "--database", "x.sqlite", "--catalog", "movies.json"], "--catalog and --database cannot be used together"),
            (["catalog", "import", "/nonexistent/catalog.json", "--database", "postgres://marquee:hunter2@127.0.0.1:1/movies"], "cannot read the catalog /nonexistent/catalog.json"),
        ]
        for (arguments, message) in cases {
            let outcome = try await marquee.run(arguments + (arguments.first == "serve" ? ["--port", "0"] : []))
            #expect(outcome.status != 0, "\(arguments)")
            #expect(outcome.errorLines.count == 1, "\(arguments): \(outcome.standardError)")
            #expect(outcome.standardError.contains(message), "\(arguments): \(outcome.standardError)")
            #expect(!outcome.standardError.contains("hunter2"))
        }

        let secret = String(repeating: "z", count: 40)
        let keys = temporaryFile("keys")
        defer { try? FileManager.default.removeItem(at: keys) }
        try Data("2026-01 \(secret)\n".utf8).write(to: keys)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: keys.path)
        let readable = try await marquee.run(["serve", "--port", "0", "--signing-keys", keys.path])
        #expect(readable.status != 0)
        #expect(readable.errorLines.count == 1)
        #expect(readable.standardError.contains("other users may read it (mode 644); run 'chmod 600"))
        try Data("2026-01 short\n".utf8).write(to: keys)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: keys.path)
        let short = try await marquee.run(["serve", "--port", "0", "--signing-keys", keys.path])
        #expect(short.status != 0)
        #expect(short.errorLines.count == 1)
        #expect(short.standardError.contains("entry 1: the secret is shorter than 32 characters"))
        for outcome in [readable, short] { #expect(!outcome.standardError.contains(secret)) }

        try Data("\(secret) 2026-01\n".utf8).write(to: keys)
        let swapped = try await marquee.run(["serve", "--port", "0", "--signing-keys", keys.path])
        #expect(swapped.status != 0)
        #expect(swapped.errorLines.count == 1, "\(swapped.standardError)")
        #expect(swapped.standardError.contains("entry 1: the secret is shorter than 32 characters"))
        #expect(!swapped.standardError.contains("zzzz"), "no part of a secret is printed: \(swapped.standardError)")
        let swappedInVariable = try await marquee.run(
            ["serve", "--port", "0"], environment: ["MARQUEE_SIGNING_KEYS": "2026-01 \(secret)x;\(secret) 2026-02"]
        )
        #expect(swappedInVariable.status != 0)
        #expect(swappedInVariable.standardError.contains("MARQUEE_SIGNING_KEYS, entry 2: the secret is shorter than 32 characters"))
        #expect(!swappedInVariable.standardError.contains("zzzz"))

        try Data("2026-01 \(secret)\n".utf8).write(to: keys)
        let target = keys.path
        let link = temporaryFile("keys-link")
        defer { try? FileManager.default.removeItem(at: link) }
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: target)
        let linked = try marquee.launch(["serve", "--port", "0", "--signing-keys", link.path])
        let listening = await linked.nextErrorLine(containing: "listening on")
        _ = await linked.signal(SIGTERM)
        #expect(listening != nil, "a key file reached through a link (mode 777) is judged by its target's mode 600")
        try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: target)
        let linkedReadable = try await marquee.run(["serve", "--port", "0", "--signing-keys", link.path])
        #expect(linkedReadable.status != 0)
        #expect(linkedReadable.standardError.contains("other users may read it (mode 640)"))
    }

    // MARK: - Helpers

    /// Runs one statement on `database` outside Marquee.
    private func execute(_ sql: String, on database: String, kind: Kind) async throws {
        switch kind {
        case .sqlite:
            let queue = try DatabaseQueue(path: database)
            try await queue.write { try $0.execute(sql: sql) }
            try queue.close()
        case .postgres:
            try await PostgresCluster.required().withSession(on: database) { session in
                _ = try await session.query(PostgresQuery(unsafeSQL: sql), logger: quietLogger)
            }
        }
    }

    /// The tables of `database`, by name.
    private func tables(of database: String, kind: Kind) async throws -> [String] {
        switch kind {
        case .sqlite:
            let queue = try DatabaseQueue(path: database)
            defer { try? queue.close() }
            return try await queue.read { try String.fetchAll($0, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name") }
        case .postgres:
            return try await PostgresCluster.required().withSession(on: database) { session in
                try await session.query("SELECT tablename FROM pg_tables WHERE schemaname = current_schema() ORDER BY tablename", logger: quietLogger)
                    .collect().map { try $0.decode(String.self) }
            }
        }
    }

    private func importReferenceCatalog(into database: String) async throws {
        let file = temporaryFile("reference.json")
        defer { try? FileManager.default.removeItem(at: file) }
        try JSONEncoder().encode(try Catalog.reference().movies).write(to: file)
        let outcome = try await marquee.run(["catalog", "import", file.path, "--database", database])
        #expect(outcome.status == 0, "\(outcome.standardError)")
    }

    /// Starts `marquee serve --database` and returns it with the port it listens on.
    private func serve(_ database: String, port: Int = 0, extra: [String] = []) async throws -> (ChildProcess, Int) {
        try await marquee.serve(["--port", "\(port)", "--database", database] + extra)
    }

    /// `serve`, once the server has made its search index: `serve` starts reading every movie for
    /// it in the background, and a test that locks the movie table must not find that read
    /// waiting beside the request it counts.
    private func serveWithSearchIndex(_ database: String, extra: [String]) async throws -> (ChildProcess, Int) {
        let (server, port) = try await serve(database, extra: extra)
        try #require(try await eventually { server.lastOutput.contains("search index ready") }, "\(server.lastOutput)")
        return (server, port)
    }

    private func temporaryFile(_ name: String) -> URL {
        TestFolders.temporary.appendingPathComponent("\(UUID().uuidString)-\(name)")
    }

    /// The server's queries waiting for a lock: client backends only, since autovacuum, which an
    /// import sets going, waits for a locked table too.
    private static func queriesWaitingForLocks(_ session: PostgresConnection) async throws -> Int {
        let rows = try await session.query(
            "SELECT count(*)::bigint FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database() AND backend_type = 'client backend'",
            logger: quietLogger
        ).collect()
        return try rows.first?.decode(Int.self) ?? 0
    }

    private static func accepts(port: Int) async -> Bool {
        guard let connection = try? await RawConnection.open(port: port) else { return false }
        await connection.close()
        return true
    }
}
