import Foundation
import GRDB
import MarqueeTestSupport
import NetworkTestSupport
import ServerTestSupport
import Testing

/// What a careless command line, a hostile server or a damaged file can do to the app: each ends
/// in one clear line and a non-zero status, or in a safe answer, never a crash, a deleted file or
/// a forged terminal line.
@Suite("Hardening through the app", .timeLimit(.minutes(3)))
struct HardeningTests {
    let marquee = MarqueeProcess()

    @Test("cache clear refuses a folder, a text file and another program's database, and touches nothing", arguments: ["folder", "text", "database"])
    func clearRefusesWhatIsNotAStore(kind: String) async throws {
        let folder = try Self.temporaryFolder()
        let target = folder.appendingPathComponent(kind == "folder" ? "Documents" : "notes.txt")
        switch kind {
        case "folder":
            try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
            try Data("precious".utf8).write(to: target.appendingPathComponent("thesis.txt"))
        case "text":
            try Data("precious".utf8).write(to: target)
        default:
            try await DatabaseQueue(path: target.path).write { db in try db.execute(sql: "CREATE TABLE notes (text TEXT)") }
        }
        let before = try FileManager.default.subpathsOfDirectory(atPath: folder.path).sorted()
        let outcome = try await marquee.run(["cache", "clear", "--store", target.path])
        #expect(outcome.status != 0)
        #expect(outcome.errorLines.count == 1)
        #expect(outcome.standardError.contains("is not a movie store"))
        #expect(try FileManager.default.subpathsOfDirectory(atPath: folder.path).sorted() == before)
    }

    @Test("an out-of-range port or a password in --env is one line and a non-zero status; the password is never printed", arguments: [
        "http://127.0.0.1:99999/api/", "http://127.0.0.1:0/api/", "http://alice:s3cret-word@127.0.0.1:8080/api/", "ftp://127.0.0.1/api/",
    ])
    func refusesBadEnvironments(environment: String) async throws {
        for command in [["top-grossing"], ["auth", "status"], ["cache", "stats"]] {
            let outcome = try await marquee.run(command + ["--env", environment])
            #expect(outcome.status != 0, "\(command)")
            #expect(outcome.errorLines.count == 1, "\(outcome.standardError)")
            #expect(outcome.standardError.hasPrefix("marquee: invalid --env: "))
            #expect(!outcome.standardError.contains("s3cret-word") && !outcome.standardOutput.contains("s3cret-word"))
        }
    }

    @Test("names and error texts with escape codes, OSC titles and CR/LF reach the terminal defused")
    func defusesServerText() async throws {
        let server = try await FaultServer.start()
        defer { Task { await server.stop() } }
        let listing = try await marquee.run(["top-rated", "--year", "1995", "--env", server.baseURL(for: .escapeCodes).absoluteString, "--trace"])
        #expect(listing.status == 0, "\(listing.standardError)")
        let movie = try await marquee.run(["movie", "77", "--env", server.baseURL(for: .escapeCodes).absoluteString, "--trace"])
        #expect(movie.status == 0, "\(movie.standardError)")
        let failure = try await marquee.run(["top-rated", "--env", server.baseURL(for: .escapeCodesInError).absoluteString])
        #expect(failure.status != 0)
        #expect(failure.errorLines.count == 1)
        for outcome in [listing, movie, failure] {
            let text = outcome.standardOutput + outcome.standardError
            #expect(!text.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{07}" || $0 == "\r" || $0 == "\u{9B}" })
            #expect(!text.split(separator: "\n").contains { $0.hasPrefix("marquee: forged") })
        }
        let json = try await marquee.run(["top-rated", "--year", "1995", "--env", server.baseURL(for: .escapeCodes).absoluteString, "--json"])
        #expect(json.standardOutput.contains(#"\u001b[2J"#), "JSON keeps the name, escaped")
    }

    @Test("a stored credential with an absurd expiry is ignored with a warning, and auth status does not crash")
    func absurdCredentialDates() async throws {
        let home = try TemporaryConfigHome()
        let api = "http://127.0.0.1:9/api/"
        try FileManager.default.createDirectory(at: home.credentialsFile.deletingLastPathComponent(), withIntermediateDirectories: true)
        let contents = #"{"version":1,"credentials":{"\#(TemporaryConfigHome.applicationKey(api))":{"accessToken":"a","issuedAt":0,"expiresAt":1e300}}}"#
        #expect(FileManager.default.createFile(atPath: home.credentialsFile.path, contents: Data(contents.utf8), attributes: [.posixPermissions: 0o600]))
        let status = try await home.marquee.run(["auth", "status", "--env", api])
        #expect(status.status == 0, "\(status.standardError)")
        #expect(status.standardOutput == "Nobody is signed in to \(api); sign in with 'marquee login'.\nThe client marquee-dev holds no credential of its own for \(api).\nThe API is chosen by --env.\n")
        #expect(status.errorLines.count == 1)
        #expect(try Data(contentsOf: home.credentialsFile) == Data(contents.utf8), "left as it was")
    }

    @Test("a store with an absurd fetch time is reported as damaged in one line by cache stats and --offline")
    func absurdStoredDates() async throws {
        let store = try Self.temporaryFolder().appendingPathComponent("movies.sqlite")
        #expect(try await marquee.run(["top-rated", "--env", "stub:success", "--store", store.path]).status == 0)
        try await DatabaseQueue(path: store.path).write { db in try db.execute(sql: "UPDATE listSnapshot SET fetchedAt = 1e300") }
        for command in [["cache", "stats"], ["top-rated", "--env", "stub:success", "--offline"]] {
            let outcome = try await marquee.run(command + ["--store", store.path])
            #expect(outcome.status != 0, "\(command)")
            #expect(outcome.errorLines.count == 1, "\(outcome.standardError)")
            #expect(outcome.standardError.contains("is damaged"))
        }
    }

    @Test("auth forget that cannot write says so and exits non-zero; the credential is still there")
    func logoutFailureIsAnError() async throws {
        try await withMovieServer(auth: .init()) { server in
            let home = try TemporaryConfigHome()
            let api = server.baseURL.absoluteString
            #expect(try await home.marquee.run(["top-grossing", "--env", api]).status == 0)
            let lock = home.credentialsFile.appendingPathExtension("lock")
            try? FileManager.default.removeItem(at: lock)
            try FileManager.default.createDirectory(at: lock, withIntermediateDirectories: true)
            let logout = try await home.marquee.run(["auth", "forget", "--env", api])
            #expect(logout.status != 0)
            #expect(logout.errorLines.count == 1)
            #expect(logout.standardError.contains("cannot lock the credentials file"))
            #expect(!logout.standardOutput.contains("Forgot"))
            let status = try await home.marquee.run(["auth", "status", "--env", api])
            #expect(status.standardOutput.contains("Signed in to \(api) as the client marquee-dev"))
        }
    }

    @Test("a store that cannot be opened does not block the network's answer: one warning, the answer, exit 0")
    func unusableStore() async throws {
        let blocker = try Self.temporaryFolder().appendingPathComponent("a-file")
        try Data("x".utf8).write(to: blocker)
        let store = blocker.appendingPathComponent("movies.sqlite").path
        let outcome = try await marquee.run(["top-grossing", "--env", "stub:success", "--store", store])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        #expect(outcome.standardOutput.contains("Finding Dory (2016)"))
        #expect(outcome.errorLines.count == 1)
        #expect(outcome.standardError.hasPrefix("marquee: warning: cannot open the movie store \(store)"))
        #expect(outcome.standardError.contains("not stored this run"))
        let offline = try await marquee.run(["top-grossing", "--env", "stub:success", "--store", store, "--offline"])
        #expect(offline.status != 0, "offline, the store's problem is the answer")
    }

    static func temporaryFolder() throws -> URL {
        let folder = TestFolders.temporary.appendingPathComponent("hardening-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }
}
