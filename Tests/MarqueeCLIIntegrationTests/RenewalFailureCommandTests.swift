import Foundation
import MarqueeTestSupport
import MovieAPI
import MovieServer
import Movies
import NetworkTestSupport
import ServerTestSupport
import Testing

/// A person signed in with `marquee login`, whose access token has expired, against a real server
/// behind a relay that answers the token endpoint as a server or proxy in trouble would: the
/// sign-in and its refresh token stay on disk through every such answer, the next command renews
/// it, and only the server's refusal of the refresh token signs the person out.
@Suite("Renewing a sign-in the server cannot answer", .serialized, .timeLimit(.minutes(4)))
struct RenewalFailureCommandTests {
    /// Each fault, and what `sync` then says of it.
    static let faults: [(name: String, answer: InterceptingRelay.Answer, said: String)] = [
        ("503", InterceptingRelay.status("503 Service Unavailable", body: #"{"error":"temporarily_unavailable","error_description":"the database is not answering"}"#),
         "the server answered 503 Service Unavailable: the database is not answering"),
        ("a proxy's 502 page", InterceptingRelay.status("502 Bad Gateway", contentType: "text/html", body: "<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body></html>"),
         "the server answered 502 Bad Gateway;"),
        ("500", InterceptingRelay.status("500 Internal Server Error", body: #"{"error":"server_error","error_description":"boom"}"#), "the server answered 500 Internal Server Error: boom"),
        ("429", InterceptingRelay.status("429 Too Many Requests", headers: ["Retry-After: 30"], body: #"{"error":"slow_down"}"#), "the server answered 429 Too Many Requests"),
        ("a time-out", .hang, "the server did not answer within"),
        ("a connection closed unanswered", .close, "the connection to the server was lost"),
    ]

    /// alice's stored sign-in for `api`, made expired as an hour without a command leaves it;
    /// its refresh token.
    static func expire(_ home: TemporaryConfigHome, api: String) async throws -> String {
        let context = try Self.context(home, api: api)
        var credential = try #require(await context.credential(), "alice is signed in")
        credential.issuedAt = Date().addingTimeInterval(-7_200)
        credential.expiresAt = Date().addingTimeInterval(-3_600)
        try await context.store(credential)
        return try #require(credential.refreshToken)
    }

    /// alice's refresh token on disk, or nil when she is signed out.
    static func storedRefreshToken(_ home: TemporaryConfigHome, api: String) throws -> String? {
        try FileAPIContext.stored(in: home.credentialsFile, for: APIIdentity(baseURL: try APIBaseURL(api)))
            .first { $0.holder == .person(account: "alice") }?.credential.refreshToken
    }

    static func context(_ home: TemporaryConfigHome, api: String) throws -> FileAPIContext {
        let environment = try #require(APIEnvironment(APIIdentity(baseURL: try APIBaseURL(api))))
        return FileAPIContext(environment: environment, fileURL: home.credentialsFile, holder: .person(account: "alice"))
    }

    @Test("a 503, a proxy's 502 page, a 500, a 429, a time-out or a dropped connection at the token endpoint keeps alice signed in with her refresh token; the next command renews it; the server's invalid_grant signs her out")
    func keepsTheSignIn() async throws {
        let storage = MemoryStorage(catalog: try Catalog.reference())
        try await withMovieServer(auth: LoginFlow.auth(), storage: storage) { server in
            let relay = try await InterceptingRelay.start(to: server.port, intercepting: "POST /api/auth/token")
            let api = "http://127.0.0.1:\(relay.port)/api/"
            let home = try TemporaryConfigHome()
            try await finally(try await {
                #expect(try await LoginFlow.login(home.marquee, api: api, port: server.port, as: "alice").status == 0)
                for (name, answer, said) in Self.faults {
                    let refreshToken = try await Self.expire(home, api: api)
                    relay.answer = answer
                    let run = try await home.marquee.run(["sync", "--env", api, "--timeout", "2"])
                    #expect(run.status == 1)
                    #expect(run.errorLines.count == 1 && run.errorLines.first?.hasPrefix("marquee: sync: \(said)") == true, "\(name): \(run.standardError)")
                    #expect(!run.standardError.contains("signed out") && !run.standardError.contains("nobody is signed in"), "\(name): \(run.standardError)")
                    #expect(try Self.storedRefreshToken(home, api: api) == refreshToken, "\(name): the sign-in is kept on disk")
                    let status = try await home.marquee.run(["auth", "status", "--env", api])
                    #expect(status.standardOutput.contains("Signed in to \(api) as alice"), "\(name): \(status.standardOutput)")
                }
                #expect(relay.intercepted >= Self.faults.count)

                let refreshToken = try await Self.expire(home, api: api)
                relay.answer = nil
                let renewed = try await home.marquee.run(["sync", "--env", api])
                #expect(renewed.status == 0, "\(renewed.standardError)")
                #expect(renewed.standardError.isEmpty, "\(renewed.standardError)")
                let newRefreshToken = try Self.storedRefreshToken(home, api: api)
                #expect(newRefreshToken != nil && newRefreshToken != refreshToken, "the next command renewed the sign-in")

                #expect(storage.endSignIns(ofAccount: "alice", id: nil) == 2, "her device, and the page she approved it on")
                _ = try await Self.expire(home, api: api)
                let refused = try await home.marquee.run(["sync", "--env", api])
                #expect(refused.status == 1)
                #expect(refused.errorLines.first?.hasPrefix("marquee: sync: signed out of \(api) as alice: the session has ended") == true, "\(refused.standardError)")
                #expect(try Self.storedRefreshToken(home, api: api) == nil)
            }()) {
                await relay.stop()
            }
        }
    }

    @Test("after a session ends elsewhere, 'watchlist' says she is signed out and ends non-zero, as 'watchlist --offline' then does")
    func watchlistAfterTheSessionEnds() async throws {
        let storage = MemoryStorage(catalog: try Catalog.reference())
        try await withMovieServer(auth: LoginFlow.auth(), storage: storage) { server in
            let api = server.baseURL.absoluteString
            let home = try TemporaryConfigHome()
            #expect(try await LoginFlow.login(home.marquee, api: api, port: server.port, as: "alice").status == 0)
            #expect(try await home.marquee.run(["watch", "add", "7", "--env", api]).status == 0)
            #expect(storage.endSignIns(ofAccount: "alice", id: nil) == 2)
            _ = try await Self.expire(home, api: api)
            let online = try await home.marquee.run(["watchlist", "--env", api])
            #expect(online.status == 1, "\(online.standardOutput)")
            #expect(online.errorLines == ["marquee: signed out of \(api) as alice: the session has ended; run 'marquee login' to sign in again"], "\(online.standardError)")
            let offline = try await home.marquee.run(["watchlist", "--offline", "--env", api])
            #expect(offline.status == 1, "\(offline.standardOutput)")
        }
    }

    @Test("a server that cannot be reached at all (connection refused) keeps alice signed in with her refresh token")
    func connectionRefusedKeepsTheSignIn() async throws {
        try await withMovieServer(auth: LoginFlow.auth()) { server in
            let address = try await AddressThatGoesAway.start(to: server.port)
            let api = address.baseURL.absoluteString
            let home = try TemporaryConfigHome()
            #expect(try await LoginFlow.login(home.marquee, api: api, port: server.port, as: "alice").status == 0)
            let refreshToken = try await Self.expire(home, api: api)
            try await address.goAway()
            let run = try await home.marquee.run(["sync", "--env", api])
            #expect(run.standardError.contains("cannot connect to 127.0.0.1:\(address.port)"), "\(run.standardError)")
            #expect(!run.standardError.contains("signed out"), "\(run.standardError)")
            #expect(try Self.storedRefreshToken(home, api: api) == refreshToken)
        }
    }
}
