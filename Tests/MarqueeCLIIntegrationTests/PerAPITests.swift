import Foundation
import GRDB
import Hummingbird
import MarqueeTestSupport
import MovieStore
import MovieServer
import NIOConcurrencyHelpers
import NetworkTestSupport
import ReferenceAPI
import ServerTestSupport
import Testing

/// Each API's data and credential kept apart, and authentication only where a server asks for
/// it, through the app as a user runs it.
@Suite("Per-API data and negotiated authentication")
struct PerAPITests {
    @Test("what one API stored never answers for another; cache stats and clear work API by API")
    func storeKeepsAPIsApart() async throws {
        let marquee = MarqueeProcess()
        #expect(try await marquee.run(["top-grossing"]).status == 0)

        let dead = "http://127.0.0.1:\(try await closedLoopbackPort())/api/"
        let elsewhere = try await marquee.run(["top-grossing", "--env", dead])
        #expect(elsewhere.status != 0, "the embedded API's list must not answer for \(dead)")
        #expect(elsewhere.errorLines.count == 1)
        #expect(elsewhere.standardError.hasPrefix("marquee: cannot connect to 127.0.0.1"))
        #expect(elsewhere.standardOutput.isEmpty)

        #expect(try await marquee.run(["top-rated", "--env", "stub:success"]).status == 0)
        let offlineStub = try await marquee.run(["top-rated", "--env", "stub:noNetwork"])
        #expect(offlineStub.status == 0, "every stub scenario is one API, as the article's offline case")
        #expect(offlineStub.standardOutput.contains("(from the local store, fetched"))

        let stats = try await marquee.run(["cache", "stats"])
        #expect(stats.standardOutput.contains("API       embedded\n  Movies  10 (30 actors)\n  Lists   topGrossing/2016: 10 movies"))
        #expect(stats.standardOutput.contains("API       stub\n  Movies  10 (30 actors)\n  Lists   topRated/2016: 10 movies"))

        let clear = try await marquee.run(["cache", "clear", "--env", "stub:success"])
        #expect(clear.status == 0)
        #expect(clear.standardOutput.contains("for the stub API"))
        let after = try await marquee.run(["cache", "stats"])
        #expect(after.standardOutput.contains("API       embedded\n  Movies  10 (30 actors)"))
        #expect(after.standardOutput.contains("Movies    10 in all APIs, with 30 actors"), "the actors left are the embedded API's own: \(after.standardOutput)")
        #expect(!after.standardOutput.contains("API       stub"))
        let onlyStub = try await marquee.run(["cache", "stats", "--env", "stub:success"])
        #expect(onlyStub.standardOutput.hasSuffix("Nothing is stored for stub.\n"), "\(onlyStub.standardOutput)")
        _ = try await marquee.run(["cache", "clear", "--env", "embedded"])
        let empty = try await marquee.run(["cache", "stats"])
        #expect(empty.standardOutput.contains("Movies    0 in all APIs, with 0 actors"), "no actor outlives the last movie naming it")
        #expect(try await marquee.run(["top-rated", "--env", "stub:noNetwork"]).status != 0)
    }

    @Test("a static copy of the reference site (no auth endpoint, 404 pages in HTML): all three commands work, and no token is ever asked for")
    func staticSiteNeedsNoToken() async throws {
        let log = RequestLog()
        try await withLoopbackServer({ router in StaticReferenceSite.register(on: router, log: log) }) { server in
            let marquee = MarqueeProcess()
            let api = server.baseURL.absoluteString
            for command in [["top-grossing"], ["top-rated"], ["movie", "6"]] {
                let outcome = try await marquee.run(command + ["--env", api])
                #expect(outcome.status == 0, "\(command): \(outcome.standardError)")
            }
            #expect(log.lines == ["GET /api/movies/topGrossing/2016", "GET /api/movies/topRated/2016", "GET /api/movies/6"])
            #expect(log.authorizationHeaders.isEmpty)
        }
    }

    @Test("against a server that requires tokens: the first run costs one 401 and one grant, the second run none")
    func negotiatesOnce() async throws {
        try await withMovieServer(auth: AuthConfiguration()) { server in
            let home = try TemporaryConfigHome()
            let api = server.baseURL.absoluteString
            let first = try await home.marquee.run(["top-grossing", "--env", api])
            #expect(first.status == 0, "\(first.standardError)")
            #expect(server.challenges == 1)
            #expect(server.grants == GrantLedger.Counts(clientCredentials: 1))

            let second = try await home.marquee.run(["top-rated", "--env", api])
            #expect(second.status == 0, "\(second.standardError)")
            #expect(server.challenges == 1, "the stored credential is sent up front")
            #expect(server.grants == GrantLedger.Counts(clientCredentials: 1))
        }
    }

    @Test("8 processes at once with an expired access token and a single-use refresh token: all succeed on one refresh grant")
    func processesShareOneRefresh() async throws {
        try await withMovieServer(auth: AuthConfiguration()) { server in
            let home = try TemporaryConfigHome()
            let api = server.baseURL.absoluteString
            #expect(try await home.marquee.run(["top-grossing", "--env", api]).status == 0)
            try home.expireStoredCredential(for: api)

            let outcomes = try await withThrowingTaskGroup(of: MarqueeProcess.Outcome.self) { group in
                for index in 0..<8 {
                    group.addTask { try await home.marquee.run([index.isMultiple(of: 2) ? "top-rated" : "top-grossing", "--env", api]) }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(outcomes.allSatisfy { $0.status == 0 }, "\(outcomes.map(\.standardError))")
            #expect(server.grants == GrantLedger.Counts(clientCredentials: 1, refreshToken: 1, refused: 0))
            try home.expectValidCredentialsFile(holding: [api])
        }
    }

    @Test("10 processes against 10 APIs at once leave 10 credentials in the one file")
    func processesKeepEveryEntry() async throws {
        var servers: [RunningServer] = []
        for _ in 0..<10 {
            let configuration = MovieServer.Configuration(host: "127.0.0.1", port: 0, storage: MemoryStorage(catalog: try Catalog.reference()), auth: AuthConfiguration(), logger: quietLogger)
            servers.append(try await MovieServer(configuration: configuration).start())
        }
        let home = try TemporaryConfigHome()
        let apis = servers.map(\.baseURL.absoluteString)
        let statuses = try await withThrowingTaskGroup(of: Int32.self) { group in
            for api in apis { group.addTask { try await home.marquee.run(["top-grossing", "--env", api]).status } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        for server in servers { try? await server.stop() }
        #expect(statuses == Array(repeating: 0, count: 10))
        try home.expectValidCredentialsFile(holding: apis)
    }

    @Test("10 processes opening one new store at once all succeed, in 20 rounds")
    func processesCreateOneStore() async throws {
        let marquee = MarqueeProcess()
        let folder = TestFolders.temporary.appendingPathComponent("new-store-\(UUID().uuidString)")
        for round in 1...20 {
            let store = folder.appendingPathComponent("round-\(round).sqlite").path
            let outcomes = try await withThrowingTaskGroup(of: MarqueeProcess.Outcome.self) { group in
                for _ in 0..<10 { group.addTask { try await marquee.run(["top-grossing", "--env", "stub:success", "--store", store]) } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            let failures = outcomes.filter { $0.status != 0 }.map(\.standardError)
            #expect(failures.isEmpty, "round \(round): \(failures)")
            #expect(outcomes.allSatisfy { CommandOutput.rankedRows($0.standardOutput).count == 10 }, "round \(round): every process printed the list")

            let (steps, tables, integrity) = try await DatabaseQueue(path: store).read { db in
                (
                    try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY rowid"),
                    try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name"),
                    try String.fetchOne(db, sql: "PRAGMA integrity_check")
                )
            }
            #expect(steps.count == MovieStore.schemaVersion && Set(steps).count == steps.count && steps.first?.hasPrefix("v1:") == true, "round \(round): each step applied once: \(steps)")
            #expect(tables.filter { !$0.hasPrefix("movieWords_") } == [
                "actor", "api", "castMember", "grdb_migrations", "listEntry", "listSnapshot", "liveCursor", "movie", "movieWords",
                "shelfOutbox", "shelfRecord", "shownList", "shownMovie", "storeDevice", "storedMovieCount", "useClock", "watchlistChangeLog", "watchlistEntry", "watchlistOutbox", "watchlistRemoval", "watchlistState",
            ], "round \(round): \(tables)")
            #expect(integrity == "ok")
            let offline = try await marquee.run(["top-grossing", "--env", "stub:success", "--store", store, "--offline"])
            #expect(offline.status == 0 && CommandOutput.rankedRows(offline.standardOutput).count == 10, "round \(round): the store answers")
        }
    }
}

/// The original site as a folder of static files: the reference bodies at `/api/…`, no auth
/// endpoint, and a 404 HTML page for anything else.
enum StaticReferenceSite {
    static func register(on router: Router<BasicRequestContext>, log: RequestLog) {
        router.get("**") { request, _ in
            log.record(request)
            let path = request.uri.path
            guard path.hasPrefix("/api/"), let body = ReferenceBodies.body(at: path.dropFirst(5) + ".json") else { return notFound }
            return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: body)))
        }
        router.post("**") { request, _ in
            log.record(request)
            return notFound
        }
    }

    static var notFound: Response {
        Response(status: .notFound, headers: [.contentType: "text/html"], body: .init(byteBuffer: ByteBuffer(string: "<html><body>404 Not Found</body></html>")))
    }
}

/// The requests a test server received: `METHOD /path`, and any Authorization header.
final class RequestLog: Sendable {
    private let entries = NIOLockedValueBox<[(line: String, authorization: String?)]>([])

    func record(_ request: Request) {
        entries.withLockedValue { $0.append(("\(request.method) \(request.uri.path)", request.headers[.authorization])) }
    }

    var lines: [String] { entries.withLockedValue { $0.map(\.line) } }
    var authorizationHeaders: [String] { entries.withLockedValue { $0.compactMap(\.authorization) } }
}

extension TemporaryConfigHome {
    /// Moves the stored credential of `api` into the past, as if its access token had expired.
    func expireStoredCredential(for api: String) throws {
        var json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: credentialsFile)) as? [String: Any])
        var credentials = try #require(json["credentials"] as? [String: [String: Any]])
        let now = Date().timeIntervalSince1970
        credentials[Self.applicationKey(api)]?["issuedAt"] = now - 3700
        credentials[Self.applicationKey(api)]?["expiresAt"] = now - 100
        json["credentials"] = credentials
        try JSONSerialization.data(withJSONObject: json).write(to: credentialsFile)
    }

    /// The credentials file is valid JSON, readable by its owner only, and holds exactly `apis`.
    func expectValidCredentialsFile(holding apis: [String]) throws {
        let attributes = try FileManager.default.attributesOfItem(atPath: credentialsFile.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: credentialsFile)) as? [String: Any])
        let credentials = try #require(json["credentials"] as? [String: [String: Any]])
        #expect(Set(credentials.keys) == Set(apis.map { Self.applicationKey($0) }))
        for api in apis { _ = try storedAccessToken(for: api) }
    }
}
