import Foundation
import MarqueeTestSupport
import MovieServer
import Testing

/// Access tokens name their signing key (`kid`); a server accepts every key it lists and signs
/// with the newest, so keys rotate without signing anyone out.
@Suite("Signing key rotation")
struct SigningKeyRotationTests {
    static let oldKey = SigningKey(id: "2026-01", secret: String(repeating: "o", count: 40))
    static let newKey = SigningKey(id: "2026-02", secret: String(repeating: "n", count: 40))

    @Test("a token signed with the old key is accepted after the new key is added, until it expires; new tokens use the new key")
    func rotatesWithoutSigningOut() async throws {
        let clock = ManualClock()
        let before = AuthConfiguration(accessTokenLifetime: .seconds(600), signingKeys: try SigningKeyRing([Self.oldKey]), now: clock.now)
        let oldToken = try await withServerClient(auth: before) { client in
            try await BearerTokenTests.accessToken(from: client)
        }
        #expect(Self.keyID(of: oldToken) == "2026-01")

        let after = AuthConfiguration(
            accessTokenLifetime: .seconds(600), signingKeys: try SigningKeyRing([Self.oldKey, Self.newKey]), now: clock.now
        )
        try await withServerClient(auth: after) { client in
            #expect(try await client.get("/api/movies/1", headers: Self.bearer(oldToken)).status == 200)
            let newToken = try await BearerTokenTests.accessToken(from: client)
            #expect(Self.keyID(of: newToken) == "2026-02")
            #expect(try await client.get("/api/movies/1", headers: Self.bearer(newToken)).status == 200)

            clock.advance(by: 601 + 60)
            let expired = try await client.get("/api/movies/1", headers: Self.bearer(oldToken))
            #expect(expired.status == 401)
            #expect((expired.json?["error_description"] as? String)?.contains("expired") == true)
        }
    }

    @Test("once the old key is removed from the ring, its tokens are refused")
    func removedKeysAreRefused() async throws {
        let oldToken = try await withServerClient(auth: AuthConfiguration(signingKeys: try SigningKeyRing([Self.oldKey]))) { client in
            try await BearerTokenTests.accessToken(from: client)
        }
        try await withServerClient(auth: AuthConfiguration(signingKeys: try SigningKeyRing([Self.newKey]))) { client in
            let answer = try await client.get("/api/movies/1", headers: Self.bearer(oldToken))
            #expect(answer.status == 401)
            #expect(answer.json?["error_description"] as? String == "The access token was signed with a key this server does not accept.")
        }
    }

    @Test("a token whose kid names no listed key is refused with 401, even when its signature matches a listed key's secret")
    func unknownKeyIDsAreRefused() async throws {
        let sameSecretOtherID = SigningKey(id: "unlisted", secret: String(repeating: "o", count: 40))
        let forged = try await withServerClient(auth: AuthConfiguration(signingKeys: try SigningKeyRing([sameSecretOtherID]))) { client in
            try await BearerTokenTests.accessToken(from: client)
        }
        #expect(Self.keyID(of: forged) == "unlisted")
        try await withServerClient(auth: AuthConfiguration(signingKeys: try SigningKeyRing([Self.oldKey]))) { client in
            let answer = try await client.get("/api/movies/1", headers: Self.bearer(forged))
            #expect(answer.status == 401)
            #expect(answer.headers.first(name: "www-authenticate")?.contains(#"error="invalid_token""#) == true)
            let withoutKeyID = Self.removingKeyID(from: forged)
            #expect(try await client.get("/api/movies/1", headers: Self.bearer(withoutKeyID)).status == 401)
        }
    }

    @Test("key lists are parsed oldest first; bad entries are named by number, never by secret")
    func parsesKeyLists() throws {
        let secret = String(repeating: "s", count: 32)
        let ring = try SigningKeyRing.parse("# keys\nfirst \(secret)\n\nsecond \(secret)x;third \(secret)y", source: "keys.txt")
        #expect(ring.keys.map(\.id) == ["first", "second", "third"])
        #expect(ring.newest.id == "third")

        let idLike = "AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_.x"
        let cases: [(String, String)] = [
            ("first short", "keys.txt, entry 1: the secret is shorter than 32 characters"),
            ("first \(secret)\nfirst \(secret)", "keys.txt, entry 2: the key id is listed twice"),
            ("lonely", "keys.txt, entry 1: expected 'KEY-ID SECRET'"),
            ("bad/id \(secret)", "keys.txt, entry 1: the key id must be 1 to 64 letters, digits, '-', '_' or '.' (is the line 'KEY-ID SECRET'?)"),
            ("# nothing\n", "keys.txt: it lists no key"),
            ("\(secret)/+= 2026-01", "keys.txt, entry 1: the key id must be 1 to 64 letters, digits, '-', '_' or '.' (is the line 'KEY-ID SECRET'?)"),
            ("\(idLike) 2026-01", "keys.txt, entry 1: the secret is shorter than 32 characters"),
            ("ok \(secret)x;\(idLike) 2026-02", "keys.txt, entry 2: the secret is shorter than 32 characters"),
        ]
        for (text, message) in cases {
            let error = #expect(throws: SigningKeyError.self) { try SigningKeyRing.parse(text, source: "keys.txt") }
            #expect(error?.description == message)
            #expect(error?.description.contains(secret) == false)
            #expect(error?.description.contains(idLike.prefix(8)) == false, "a swapped line's secret is never printed")
        }
    }

    @Test("the same secret gives the same single-key ring, so instances sharing MARQUEE_SIGNING_KEY accept each other's tokens")
    func singleSecretIsStable() async throws {
        let secret = String(repeating: "k", count: 40)
        #expect(SigningKeyRing.single(secret: secret).newest.id == SigningKeyRing.single(secret: secret).newest.id)
        let token = try await withServerClient(auth: AuthConfiguration(signingKeys: .single(secret: secret))) { client in
            try await BearerTokenTests.accessToken(from: client)
        }
        try await withServerClient(auth: AuthConfiguration(signingKeys: .single(secret: secret))) { client in
            let answer = try await client.get("/api/movies/1", headers: Self.bearer(token))
            #expect(answer.status == 200)
        }
    }

    static func bearer(_ token: String) -> [(String, String)] {
        [("Authorization", "Bearer \(token)")]
    }

    /// The `kid` of a JWT's header.
    static func keyID(of token: String) -> String? {
        header(of: token)?["kid"] as? String
    }

    static func header(of token: String) -> [String: Any]? {
        guard let part = token.split(separator: ".").first else { return nil }
        var base64 = part.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard let data = Data(base64Encoded: base64) else { return nil }
        return try? JSONSerialization.jsonObject(with: data) as? [String: Any]
    }

    /// The token with a header that names no key (its signature no longer matches either).
    static func removingKeyID(from token: String) -> String {
        let parts = token.split(separator: ".")
        let header = Data(#"{"alg":"HS256","typ":"JWT"}"#.utf8).base64EncodedString()
            .replacingOccurrences(of: "=", with: "").replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        return ([header] + parts.dropFirst().map(String.init)).joined(separator: ".")
    }
}
