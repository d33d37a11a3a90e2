import Foundation
import MovieServer
import Testing

/// A person's tokens: they name the account and the client, their refresh tokens rotate, a reused
/// one ends its whole chain (RFC 9700 §4.14.2), and a new password, the account's removal, the
/// client's removal, a revocation (RFC 7009) or the person ending a session ends it too.
@Suite("A person's tokens")
struct PersonTokenTests {
    static let watchlistKey = [("Idempotency-Key", UUID().uuidString), ("Content-Type", "application/json")]

    static let movieID = try! Catalog.reference().movies[0].id

    static func watchlist(_ access: String, on server: ServerClient) async throws -> Int {
        try await server.get("/api/watchlist", headers: [("Authorization", "Bearer \(access)")]).status
    }

    @Test("each refresh gives a new pair naming the same person; the spent token, used again, ends the chain: the newest token is refused too")
    func reuseEndsTheFamily() async throws {
        try await withServerClient(auth: PersonSignIn.auth()) { server in
            let (_, first) = try await PersonSignIn.tokens("alice", on: server)
            let flow = DeviceFlowClient(server: server)
            let second = try await flow.refresh(first)
            #expect(second.status == 200)
            #expect(TokenClaims.of(try #require(second.accessToken))["sub"] as? String == "alice")
            let newest = try #require(second.refreshToken)
            #expect(newest != first)
            let replayed = try await flow.refresh(first)
            #expect(replayed.error == "invalid_grant")
            let afterReplay = try await flow.refresh(newest)
            #expect(afterReplay.error == "invalid_grant", "the replay ended the chain the newest token belonged to")
            #expect(try await Self.watchlist(try #require(second.accessToken), on: server) == 401, "and its sign-in")
        }
    }

    @Test("of 10 concurrent refreshes with one token, one succeeds, and then the chain is ended")
    func concurrentReuse() async throws {
        try await withServerClient(auth: PersonSignIn.auth()) { server in
            let (_, token) = try await PersonSignIn.tokens("bob", on: server)
            let flow = DeviceFlowClient(server: server)
            let answers = try await withThrowingTaskGroup(of: DeviceFlowClient.Poll.self) { group in
                for _ in 0..<10 { group.addTask { try await flow.refresh(token) } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(answers.filter { $0.status == 200 }.count == 1)
            let winner = try #require(answers.first { $0.status == 200 }?.refreshToken)
            #expect(try await flow.refresh(winner).error == "invalid_grant")
        }
    }

    @Test("a new password, the account's removal, or the person ending the session ends the refresh chain and the access token's personal use")
    func endings() async throws {
        try await withServerClient(auth: PersonSignIn.auth()) { server in
            let flow = DeviceFlowClient(server: server)
            let accounts = server.server.server.accounts

            let (carolAccess, carolRefresh) = try await PersonSignIn.tokens("carol", on: server)
            #expect(try await Self.watchlist(carolAccess, on: server) == 200)
            try await accounts.setPassword(name: "carol", password: "a new password")
            #expect(try await flow.refresh(carolRefresh).error == "invalid_grant")
            #expect(try await Self.watchlist(carolAccess, on: server) == 401)

            let (daveAccess, daveRefresh) = try await PersonSignIn.tokens("dave", on: server)
            let put = try await server.get("/api/watchlist/\(Self.movieID)", method: .PUT, headers: Self.watchlistKey + [("Authorization", "Bearer \(daveAccess)")], body: #"{"note":"x"}"#)
            #expect(put.status == 200)
            try await accounts.remove(name: "dave")
            #expect(try await flow.refresh(daveRefresh).error == "invalid_grant")
            #expect(try await Self.watchlist(daveAccess, on: server) == 401)
            _ = try await PersonSignIn.tokens("dave", on: server)
            let (newDave, _) = try await PersonSignIn.tokens("dave", signUp: false, on: server)
            let list = try await server.get("/api/watchlist", headers: [("Authorization", "Bearer \(newDave)")])
            #expect((list.json?["entries"] as? [Any])?.isEmpty == true, "a new account of the same name starts with an empty list")

            let (erinAccess, erinRefresh) = try await PersonSignIn.tokens("erin", on: server)
            let sessions = try await server.get("/api/account/sessions", headers: [("Authorization", "Bearer \(erinAccess)")])
            let listed = try #require(sessions.json?["sessions"] as? [[String: Any]])
            #expect(Set(listed.compactMap { $0["device"] as? String }) == ["laptop", "the sign-in page in a web browser"], "the device, and the page she signed in on")
            let laptop = try #require(listed.first { $0["device"] as? String == "laptop" })
            #expect(laptop["current"] as? Bool == true)
            let id = try #require(laptop["id"] as? String)
            let ended = try await server.get("/api/account/sessions/\(id)", method: .DELETE, headers: [("Authorization", "Bearer \(erinAccess)")])
            #expect(ended.status == 204)
            #expect(try await flow.refresh(erinRefresh).error == "invalid_grant")
            #expect(try await Self.watchlist(erinAccess, on: server) == 401)
        }
    }

    @Test("a revoked refresh token (RFC 7009) ends its sign-in; revoking an unknown token is a 200 that changes nothing")
    func revocation() async throws {
        try await withServerClient(auth: PersonSignIn.auth()) { server in
            let (access, refresh) = try await PersonSignIn.tokens("frank", on: server)
            let (otherAccess, _) = try await PersonSignIn.tokens("frank", signUp: false, device: "phone", on: server)
            let revoked = try await server.get(
                "/api/auth/revoke", method: .POST, headers: TokenForms.form,
                body: "token=\(refresh)&token_type_hint=refresh_token&client_id=marquee-dev&client_secret=marquee-dev-secret"
            )
            #expect(revoked.status == 200)
            #expect(try await DeviceFlowClient(server: server).refresh(refresh).error == "invalid_grant")
            #expect(try await Self.watchlist(access, on: server) == 401)
            #expect(try await Self.watchlist(otherAccess, on: server) == 200, "the phone's sign-in goes on")
            let unknown = try await server.get(
                "/api/auth/revoke", method: .POST, headers: TokenForms.form,
                body: "token=nothing&client_id=marquee-dev&client_secret=marquee-dev-secret"
            )
            #expect(unknown.status == 200)
            let unauthenticated = try await server.get("/api/auth/revoke", method: .POST, headers: TokenForms.form, body: "token=\(refresh)")
            #expect(unauthenticated.status == 401)
        }
    }

    @Test("removing the client a person signed in through ends their chain at the next start")
    func clientRemoved() async throws {
        let app = ClientCredentials(id: "phone-app", secret: "phone-secret")
        let storage = MemoryStorage(catalog: .empty)
        let refresh = try await withServerClient(auth: PersonSignIn.auth(clients: [.development, app]), storage: storage) { server in
            try await PersonSignIn.tokens("gina", client: app, on: server).refresh
        }
        try await withServerClient(auth: PersonSignIn.auth(clients: [.development]), storage: storage) { server in
            let answer = try await DeviceFlowClient(server: server, client: app).refresh(refresh)
            #expect(answer.status == 401, "the client itself is unknown now")
        }
        let renewed = ClientCredentials(id: "phone-app", secret: "a new secret")
        try await withServerClient(auth: PersonSignIn.auth(clients: [.development, renewed]), storage: storage) { server in
            let answer = try await DeviceFlowClient(server: server, client: renewed).refresh(refresh)
            #expect(answer.error == "invalid_grant", "a new secret ends the chains of the old")
        }
    }

    @Test("an application's token has no account and no watchlist (403), and a person's token reads only their own list")
    func applicationsAndPeople() async throws {
        try await withServerClient(auth: PersonSignIn.auth()) { server in
            let grant = try await server.get("/api/auth/token", method: .POST, headers: TokenForms.form, body: TokenForms.clientGrant)
            let appToken = try #require(grant.json?["access_token"] as? String)
            let forbidden = try await server.get("/api/account/sessions", headers: [("Authorization", "Bearer \(appToken)")])
            #expect(forbidden.status == 403)
            let (alice, _) = try await PersonSignIn.tokens("alice", on: server)
            let (bob, _) = try await PersonSignIn.tokens("bob", on: server)
            let put = try await server.get("/api/watchlist/\(Self.movieID)", method: .PUT, headers: Self.watchlistKey + [("Authorization", "Bearer \(alice)")], body: #"{"note":"alice's"}"#)
            #expect(put.status == 200)
            let bobs = try await server.get("/api/watchlist", headers: [("Authorization", "Bearer \(bob)")])
            #expect((bobs.json?["entries"] as? [Any])?.isEmpty == true)
            let apps = try await server.get("/api/watchlist", headers: [("Authorization", "Bearer \(appToken)")])
            #expect(apps.status == 403)
            #expect(apps.json?["error"] as? String == "insufficient_scope")
            let alices = try await server.get("/api/watchlist", headers: [("Authorization", "Bearer \(alice)")])
            #expect((alices.json?["entries"] as? [Any])?.count == 1)
        }
    }
}
