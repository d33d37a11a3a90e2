import Crypto
import Foundation
import MarqueeTestSupport
import MovieServer
import ReferenceAPI
import NIOConcurrencyHelpers
import ServerTestSupport
import Testing

/// The movie paths behind `Authorization: Bearer` (RFC 6750).
@Suite("Bearer tokens")
struct BearerTokenTests {
    @Test("without a token the movie paths are 401 with a Bearer challenge and a JSON error")
    func requiresAToken() async throws {
        try await withServerClient(auth: AuthConfiguration()) { client in
            for path in ["/api/movies/1", "/api/movies/topGrossing/2016", "/api/movies/topRated/2016"] {
                let answer = try await client.get(path)
                #expect(answer.status == 401)
                #expect(answer.headers.first(name: "www-authenticate") == #"Bearer realm="marquee""#)
                #expect(answer.json?["error"] as? String == "invalid_token")
            }
        }
    }

    @Test("with a granted token the movie paths answer the reference bodies")
    func acceptsGrantedTokens() async throws {
        try await withServerClient(auth: AuthConfiguration()) { client in
            let token = try await AccessTokens.accessToken(from: client)
            let answer = try await client.get("/api/movies/topRated/2016", headers: [("Authorization", "Bearer \(token)")])
            #expect(answer.status == 200)
            #expect(answer.body == ReferenceBodies.body(at: "movies/topRated/2016.json"))
        }
    }

    @Test(
        "malformed tokens and other schemes are refused",
        arguments: ["Bearer", "Bearer not-a-jwt", "Bearer a.b.c", "Basic bWFycXVlZTpzZWNyZXQ=", "Token abc", "heffhq738h84aibiweh"]
    )
    func refusesMalformedTokens(header: String) async throws {
        try await withServerClient(auth: AuthConfiguration()) { client in
            let answer = try await client.get("/api/movies/1", headers: [("Authorization", header)])
            #expect(answer.status == 401)
            #expect(answer.headers.first(name: "www-authenticate")?.hasPrefix("Bearer") == true)
        }
    }

    @Test("a token signed with another key is refused")
    func refusesForgedTokens() async throws {
        let forger = AuthConfiguration(signingKey: SymmetricKey(size: .bits256))
        let forged = try await withServerClient(auth: forger) { try await AccessTokens.accessToken(from: $0) }
        try await withServerClient(auth: AuthConfiguration()) { client in
            let answer = try await client.get("/api/movies/1", headers: [("Authorization", "Bearer \(forged)")])
            #expect(answer.status == 401)
            #expect(answer.headers.first(name: "www-authenticate")?.contains(#"error="invalid_token""#) == true)
        }
    }

    @Test("with a shared signing key, a token issued to one client is refused by a server configured for another, or of another issuer or audience")
    func bindsTokensToServerAndClient() async throws {
        let key = SymmetricKey(size: .bits256)
        let alice = AuthConfiguration(client: ClientCredentials(id: "alice", secret: "alice-secret"), signingKey: key)
        let aliceToken = try await withServerClient(auth: alice) { client in
            let answer = try await client.get(
                "/api/auth/token", method: .POST, headers: TokenForms.form,
                body: "grant_type=client_credentials&client_id=alice&client_secret=alice-secret"
            )
            let token = try #require(answer.json?["access_token"] as? String)
            #expect(try await client.get("/api/movies/1", headers: [("Authorization", "Bearer \(token)")]).status == 200)
            return token
        }
        let servers = [
            AuthConfiguration(client: ClientCredentials(id: "bob", secret: "bob-secret"), signingKey: key),
            AuthConfiguration(client: ClientCredentials(id: "alice", secret: "alice-secret"), signingKey: key, issuer: "another-issuer"),
            AuthConfiguration(client: ClientCredentials(id: "alice", secret: "alice-secret"), signingKey: key, audience: "another-api"),
        ]
        for auth in servers {
            try await withServerClient(auth: auth) { client in
                let answer = try await client.get("/api/movies/1", headers: [("Authorization", "Bearer \(aliceToken)")])
                #expect(answer.status == 401)
                #expect((answer.json?["error_description"] as? String) == "The access token was not issued by this server for this client.")
            }
        }
    }

    @Test("a malformed Basic header is a 401 that says how to authenticate")
    func malformedBasicHeader() async throws {
        try await withServerClient(auth: AuthConfiguration()) { client in
            let answer = try await client.get(
                "/api/auth/token", method: .POST, headers: TokenForms.form + [("Authorization", "Basic !!!not-base64")],
                body: "grant_type=client_credentials"
            )
            #expect(answer.status == 401)
            #expect(answer.headers.first(name: "www-authenticate") == #"Basic realm="marquee""#)
        }
    }

    @Test(
        "a token is accepted until the server's clock passes its expiry and the 60 s clock-skew leeway, then refused, on the event loop and through the router (which remembers a verified token)",
        arguments: [true, false]
    )
    func refusesExpiredTokens(answersOnEventLoop: Bool) async throws {
        let clock = ManualClock()
        let auth = AuthConfiguration(accessTokenLifetime: .seconds(60), now: clock.now)
        try await withMovieServer(auth: auth, answersOnEventLoop: answersOnEventLoop) { server in
            let client = ServerClient(server: server)
            let token = try await AccessTokens.accessToken(from: client)
            for _ in 0..<3 {
                #expect(try await client.get("/api/movies/1", headers: [("Authorization", "Bearer \(token)")]).status == 200)
            }
            #expect(try await client.get("/api/movies/1", headers: [("Authorization", "Bearer \(token)x")]).status == 401)
            clock.advance(by: 119)
            #expect(try await client.get("/api/movies/1", headers: [("Authorization", "bearer   \(token) ")]).status == 200, "within the leeway")
            clock.advance(by: 2)
            let expired = try await client.get("/api/movies/1", headers: [("Authorization", "Bearer \(token)")])
            #expect(expired.status == 401)
            #expect((expired.json?["error_description"] as? String)?.contains("expired") == true)
        }
    }

    @Test("a public server needs no token")
    func publicServers() async throws {
        try await withServerClient(auth: .publicAccess) { client in
            let answer = try await client.get("/api/movies/1")
            #expect(answer.status == 200)
        }
    }

}
