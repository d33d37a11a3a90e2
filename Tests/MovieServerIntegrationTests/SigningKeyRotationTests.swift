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
            try await AccessTokens.accessToken(from: client)
        }
        #expect(Self.keyID(of: oldToken) == "2026-01")

        let after = AuthConfiguration(
            accessTokenLifetime: .seconds(600), signingKeys: try SigningKeyRing([Self.oldKey, Self.newKey]), now: clock.now
        )
        try await withServerClient(auth: after) { client in
            #expect(try await client.get("/api/movies/1", headers: Self.bearer(oldToken)).status == 200)
            let newToken = try await AccessTokens.accessToken(from: client)
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
            try await AccessTokens.accessToken(from: client)
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
            try await AccessTokens.accessToken(from: client)
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

    static let acceptedNewKey = SigningKey(id: "2026-02", secret: String(repeating: "n", count: 40), acceptOnly: true)

    @Test("rotation in two steps across two instances on one database: every request and cursor is accepted at every stage; signing with a key before the other instance accepts it is what broke")
    func twoStepRotation() async throws {
        let storage = MemoryStorage(catalog: try Catalog.reference())
        let stages: [(String, [SigningKey], [SigningKey])] = [
            ("before", [Self.oldKey], [Self.oldKey]),
            ("A learns the key", [Self.oldKey, Self.acceptedNewKey], [Self.oldKey]),
            ("both learn it", [Self.oldKey, Self.acceptedNewKey], [Self.oldKey, Self.acceptedNewKey]),
            ("A signs with it", [Self.oldKey, Self.newKey], [Self.oldKey, Self.acceptedNewKey]),
            ("both sign with it", [Self.oldKey, Self.newKey], [Self.oldKey, Self.newKey]),
        ]
        for (stage, aKeys, bKeys) in stages {
            try await withServerClient(auth: AuthConfiguration(signingKeys: try SigningKeyRing(aKeys)), storage: storage) { a in
                try await withServerClient(auth: AuthConfiguration(signingKeys: try SigningKeyRing(bKeys)), storage: storage) { b in
                    for (issuer, user) in [(a, b), (b, a)] {
                        let token = try await AccessTokens.accessToken(from: issuer)
                        #expect(try await user.get("/api/movies/1", headers: Self.bearer(token)).status == 200, "\(stage): a token of one instance at the other")
                        let page = try await issuer.get("/api/movies?query=the&limit=1", headers: Self.bearer(token))
                        let cursor = try #require(page.json?["next"] as? String, "\(stage)")
                        let next = try await user.get("/api/movies?query=the&limit=1&cursor=\(cursor)", headers: Self.bearer(token))
                        #expect(next.status == 200, "\(stage): a cursor of one instance at the other")
                    }
                }
            }
        }
        try await withServerClient(auth: AuthConfiguration(signingKeys: try SigningKeyRing([Self.oldKey, Self.newKey])), storage: storage) { a in
            try await withServerClient(auth: AuthConfiguration(signingKeys: try SigningKeyRing([Self.oldKey])), storage: storage) { b in
                let token = try await AccessTokens.accessToken(from: a)
                #expect(try await b.get("/api/movies/1", headers: Self.bearer(token)).status == 401, "one step: A signs with a key B does not know")
            }
        }
    }

    @Test("an accept-only key is accepted and signs nothing; 'accept KEY-ID SECRET' lists one; a ring must keep a key that signs")
    func acceptOnlyKeys() throws {
        let secret = String(repeating: "s", count: 32)
        let ring = try SigningKeyRing.parse("old \(secret)\naccept new \(secret)x", source: "keys.txt")
        #expect(ring.keys.map(\.id) == ["old", "new"])
        #expect(ring.newest.id == "old", "the newest key that signs")
        #expect(ring.key(id: "new")?.acceptOnly == true)
        let onlyAccepted = #expect(throws: SigningKeyError.self) { try SigningKeyRing.parse("accept new \(secret)", source: "keys.txt") }
        #expect(onlyAccepted?.description == "keys.txt: every key is accept-only: at least one must sign (a line without 'accept')")
        let named = #expect(throws: SigningKeyError.self) { try SigningKeyRing.parse("accept", source: "keys.txt") }
        #expect(named?.description == "keys.txt, entry 1: expected 'KEY-ID SECRET'")
        let reserved = #expect(throws: SigningKeyError.self) { try SigningKeyRing.parse("accept accept \(secret)", source: "keys.txt") }
        #expect(reserved?.description.contains("'accept' is no key id") == true)
        #expect(throws: SigningKeyError.onlyAcceptOnly) { try SigningKeyRing([Self.acceptedNewKey]) }
    }

    @Test("the same secret gives the same single-key ring, so instances sharing MARQUEE_SIGNING_KEY accept each other's tokens")
    func singleSecretIsStable() async throws {
        let secret = String(repeating: "k", count: 40)
        #expect(SigningKeyRing.single(secret: secret).newest.id == SigningKeyRing.single(secret: secret).newest.id)
        let token = try await withServerClient(auth: AuthConfiguration(signingKeys: .single(secret: secret))) { client in
            try await AccessTokens.accessToken(from: client)
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
