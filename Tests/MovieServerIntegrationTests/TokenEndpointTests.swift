import Foundation
import MovieServer
import Testing

/// `POST /api/auth/token` (RFC 6749) over real sockets.
@Suite("Token endpoint")
struct TokenEndpointTests {

    @Test("client credentials in a form body get a bearer token, a refresh token and its lifetime")
    func grantsClientCredentials() async throws {
        try await withServerClient(auth: AuthConfiguration(accessTokenLifetime: .seconds(120))) { client in
            let answer = try await client.get("/api/auth/token", method: .POST, headers: TokenForms.form, body: TokenForms.clientGrant)
            #expect(answer.status == 200)
            #expect(answer.headers.first(name: "cache-control") == "no-store")
            let json = try #require(answer.json)
            #expect(json["token_type"] as? String == "Bearer")
            #expect(json["expires_in"] as? Int == 120)
            #expect((json["access_token"] as? String)?.split(separator: ".").count == 3)
            #expect((json["refresh_token"] as? String)?.isEmpty == false)
            #expect(client.server.grants == GrantLedger.Counts(clientCredentials: 1, refreshToken: 0, refused: 0))
        }
    }

    @Test("the parameters may also come as JSON, or the client in a Basic header")
    func acceptsJSONAndBasic() async throws {
        try await withServerClient { client in
            let json = try await client.get(
                "/api/auth/token", method: .POST, headers: [("Content-Type", "application/json")],
                body: #"{"grant_type":"client_credentials","client_id":"marquee-dev","client_secret":"marquee-dev-secret"}"#
            )
            #expect(json.status == 200)
            let basic = Data("marquee-dev:marquee-dev-secret".utf8).base64EncodedString()
            let answer = try await client.get(
                "/api/auth/token", method: .POST, headers: TokenForms.form + [("Authorization", "Basic \(basic)")],
                body: "grant_type=client_credentials"
            )
            #expect(answer.status == 200)
            #expect(client.server.grants.clientCredentials == 2)
        }
    }

    @Test(
        "bad token requests get the RFC 6749 error and status",
        arguments: [
            ("grant_type=client_credentials&client_id=marquee-dev&client_secret=wrong", 401, "invalid_client"),
            ("grant_type=client_credentials&client_id=someone&client_secret=marquee-dev-secret", 401, "invalid_client"),
            ("grant_type=client_credentials", 401, "invalid_client"),
            ("client_id=marquee-dev&client_secret=marquee-dev-secret", 400, "invalid_request"),
            ("grant_type=password&username=a&password=b", 400, "unsupported_grant_type"),
            ("grant_type=refresh_token", 401, "invalid_client"),
            ("grant_type=refresh_token&refresh_token=made-up", 401, "invalid_client"),
            ("grant_type=refresh_token&client_id=marquee-dev&client_secret=marquee-dev-secret", 400, "invalid_request"),
            ("grant_type=refresh_token&refresh_token=made-up&client_id=marquee-dev&client_secret=marquee-dev-secret", 400, "invalid_grant"),
            ("grant_type=refresh_token&refresh_token=x&client_id=marquee-dev&client_secret=wrong", 401, "invalid_client"),
        ]
    )
    func rejectsBadRequests(body: String, status: Int, code: String) async throws {
        try await withServerClient { client in
            let answer = try await client.get("/api/auth/token", method: .POST, headers: TokenForms.form, body: body)
            #expect(answer.status == status)
            #expect(answer.contentType == "application/json")
            #expect(answer.json?["error"] as? String == code)
            #expect(!String(decoding: answer.body, as: UTF8.self).contains("marquee-dev-secret"))
            #expect(client.server.grants == GrantLedger.Counts(clientCredentials: 0, refreshToken: 0, refused: 1))
        }
    }

    @Test("a refresh token works once: it is replaced, and reusing it is invalid_grant")
    func rotatesRefreshTokens() async throws {
        try await withServerClient { client in
            let first = try await client.get("/api/auth/token", method: .POST, headers: TokenForms.form, body: TokenForms.clientGrant)
            let original = try #require(first.json?["refresh_token"] as? String)

            let refreshed = try await client.get("/api/auth/token", method: .POST, headers: TokenForms.form, body: TokenForms.refreshGrant(original))
            #expect(refreshed.status == 200)
            let replacement = try #require(refreshed.json?["refresh_token"] as? String)
            #expect(replacement != original)

            let reused = try await client.get("/api/auth/token", method: .POST, headers: TokenForms.form, body: TokenForms.refreshGrant(original))
            #expect(reused.status == 400)
            #expect(reused.json?["error"] as? String == "invalid_grant")

            let next = try await client.get("/api/auth/token", method: .POST, headers: TokenForms.form, body: TokenForms.refreshGrant(replacement))
            #expect(next.status == 200)
            #expect(client.server.grants == GrantLedger.Counts(clientCredentials: 1, refreshToken: 2, refused: 1))
        }
    }

    @Test("an oversized body is 413 and an unknown media type 415, both as JSON")
    func limitsBodies() async throws {
        try await withServerClient { client in
            let big = try await client.get(
                "/api/auth/token", method: .POST, headers: TokenForms.form,
                body: TokenForms.clientGrant + "&scope=" + String(repeating: "a", count: 20_000)
            )
            #expect(big.status == 413)
            #expect(big.json?["error"] as? String == "invalid_request")
            let xml = try await client.get("/api/auth/token", method: .POST, headers: [("Content-Type", "text/xml")], body: "<grant/>")
            #expect(xml.status == 415)
            #expect(xml.json?["error"] as? String == "invalid_request")
        }
    }

    @Test("GET /api/auth still answers the original plain-text token")
    func keepsTheLegacyToken() async throws {
        try await withServerClient(auth: AuthConfiguration()) { client in
            let answer = try await client.get("/api/auth")
            #expect(answer.status == 200)
            #expect(String(decoding: answer.body, as: UTF8.self) == "heffhq738h84aibiweh")
        }
    }
}
