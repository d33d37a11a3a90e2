import Foundation
import MovieServer
import Testing

/// A refresh token is redeemed only by the client it was issued to, with the secret it had then
/// (RFC 6749 §6), across restarts on the same storage.
@Suite("Refresh tokens bound to their client")
struct RefreshTokenBindingTests {
    static let alice = ClientCredentials(id: "alice", secret: "alice-secret")
    static let bob = ClientCredentials(id: "bob", secret: "bob-secret")

    static func auth(_ clients: [ClientCredentials]) -> AuthConfiguration {
        AuthConfiguration(client: clients[0], otherClients: Array(clients.dropFirst()))
    }

    static func tokens(for client: ClientCredentials, from server: ServerClient) async throws -> String {
        let answer = try await server.get(
            "/api/auth/token", method: .POST, headers: TokenForms.form,
            body: "grant_type=client_credentials&client_id=\(client.id)&client_secret=\(client.secret)"
        )
        #expect(answer.status == 200)
        return try #require(answer.json?["refresh_token"] as? String)
    }

    static func refresh(_ token: String, as client: ClientCredentials, on server: ServerClient) async throws -> (status: Int, error: String?, subject: String?) {
        let answer = try await server.get(
            "/api/auth/token", method: .POST, headers: TokenForms.form,
            body: TokenForms.refreshGrant(token, client: client.id, secret: client.secret)
        )
        let subject = (answer.json?["access_token"] as? String).flatMap(AccessTokenClaims.subject(of:))
        return (answer.status, answer.json?["error"] as? String, subject)
    }

    @Test("another client presenting a client's refresh token gets invalid_grant, and the token stays its owner's")
    func refusesAnotherClient() async throws {
        try await withServerClient(auth: Self.auth([Self.alice, Self.bob])) { server in
            let alicesToken = try await Self.tokens(for: Self.alice, from: server)
            let stolen = try await Self.refresh(alicesToken, as: Self.bob, on: server)
            #expect(stolen.status == 400)
            #expect(stolen.error == "invalid_grant")
            #expect(stolen.subject == nil)
            let owned = try await Self.refresh(alicesToken, as: Self.alice, on: server)
            #expect(owned.status == 200)
            #expect(owned.subject == "alice")
        }
    }

    /// Bob's refresh token, from a server that admits alice and bob, presented as `presenter` to a
    /// server restarted on the same storage with `clients`.
    static func refreshAfterRestart(with clients: [ClientCredentials], as presenter: ClientCredentials) async throws -> (status: Int, error: String?, subject: String?) {
        let storage = MemoryStorage(catalog: .empty)
        let token = try await withServerClient(auth: auth([alice, bob]), storage: storage) { server in
            try await tokens(for: bob, from: server)
        }
        return try await withServerClient(auth: auth(clients), storage: storage) { server in
            try await refresh(token, as: presenter, on: server)
        }
    }

    @Test("a client's new secret ends the refresh tokens issued under the old one")
    func endsChainsOnANewSecret() async throws {
        let rotatedBob = ClientCredentials(id: "bob", secret: "bob-new-secret")
        let refused = try await Self.refreshAfterRestart(with: [Self.alice, rotatedBob], as: rotatedBob)
        #expect(refused.status == 400)
        #expect(refused.error == "invalid_grant")
    }

    @Test("a removed client's refresh tokens yield nothing")
    func endsChainsOfARemovedClient() async throws {
        let refused = try await Self.refreshAfterRestart(with: [Self.alice], as: Self.bob)
        #expect(refused.status == 401)
        #expect(refused.error == "invalid_client")
    }

    @Test("a client restarted with the same secret keeps its refresh tokens")
    func keepsChainsAcrossRestarts() async throws {
        let refreshed = try await Self.refreshAfterRestart(with: [Self.alice, Self.bob], as: Self.bob)
        #expect(refreshed.status == 200)
        #expect(refreshed.subject == "bob")
    }
}

/// Reads a JWT's `sub` without checking it: the tests only look at what the server put there.
enum AccessTokenClaims {
    static func subject(of token: String) -> String? {
        TokenClaims.of(token)["sub"] as? String
    }
}
