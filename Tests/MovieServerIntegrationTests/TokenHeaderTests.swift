import Crypto
import Foundation
import MarqueeTestSupport
import MovieServer
import Testing

/// Access tokens are checked as a JWT library should but does not always: the header's algorithm
/// must be the key's, critical extensions are refused, `nbf` and `exp` are honoured with a
/// 60-second leeway, and times must be numbers of a sane size. Each token here carries a valid
/// HS256 signature under the server's own key, so only the checked property can refuse it.
@Suite("Access token headers and times")
struct TokenHeaderTests {
    static let key = SigningKey(id: "k1", secret: String(repeating: "h", count: 40))
    static let start = Date(timeIntervalSince1970: 1_800_000_000)

    static func claims(nbf: Any? = nil, exp: Any = start.timeIntervalSince1970 + 600) -> [String: Any] {
        var claims: [String: Any] = [
            "iss": "marquee-movie-api", "aud": ["marquee-movie-api"], "sub": ClientCredentials.development.id,
            "iat": start.timeIntervalSince1970, "exp": exp, "jti": "t",
        ]
        if let nbf { claims["nbf"] = nbf }
        return claims
    }

    /// A JWT of `header` and `claims`, signed with HMAC-SHA256 under `key`, whatever the header says.
    static func token(header: [String: Any], claims: [String: Any], key: SymmetricKey = key.key) throws -> String {
        func part(_ object: [String: Any]) throws -> String {
            try JSONSerialization.data(withJSONObject: object, options: .sortedKeys).base64URL
        }
        let signingInput = try part(header) + "." + part(claims)
        let signature = Data(HMAC<SHA256>.authenticationCode(for: Data(signingInput.utf8), using: key)).base64URL
        return signingInput + "." + signature
    }

    func status(of token: String, now: Date = start) async throws -> (Int, String?) {
        let clock = ManualClock(now)
        let auth = AuthConfiguration(signingKeys: try SigningKeyRing([Self.key]), now: clock.now)
        return try await withServerClient(auth: auth) { client in
            let answer = try await client.get("/api/movies/1", headers: [("Authorization", "Bearer \(token)")])
            return (answer.status, answer.json?["error_description"] as? String)
        }
    }

    @Test("a well-formed HS256 token with the listed kid is accepted (the control for the cases below)")
    func acceptsTheControl() async throws {
        let token = try Self.token(header: ["alg": "HS256", "typ": "JWT", "kid": "k1"], claims: Self.claims())
        #expect(try await status(of: token).0 == 200)
    }

    @Test("a header naming another algorithm is refused, though the HS256 signature is valid", arguments: ["HS512", "HS384", "RS256", "ES256", "none", "hs256"])
    func refusesOtherAlgorithms(algorithm: String) async throws {
        let token = try Self.token(header: ["alg": algorithm, "typ": "JWT", "kid": "k1"], claims: Self.claims())
        let (code, message) = try await status(of: token)
        #expect(code == 401)
        #expect(message == "The access token names an algorithm this server does not sign with.")
    }

    @Test("a token without alg, or with a crit header, is refused")
    func refusesCriticalExtensions() async throws {
        let noAlgorithm = try Self.token(header: ["typ": "JWT", "kid": "k1"], claims: Self.claims())
        #expect(try await status(of: noAlgorithm).0 == 401)
        for crit: Any in [["exp"], [] as [String], "b64"] {
            let token = try Self.token(header: ["alg": "HS256", "kid": "k1", "crit": crit], claims: Self.claims())
            let (code, message) = try await status(of: token)
            #expect(code == 401)
            #expect(message == "The access token has critical header extensions this server does not understand.")
        }
    }

    @Test("nbf is honoured with a 60 s leeway")
    func honoursNotBefore() async throws {
        let header: [String: Any] = ["alg": "HS256", "kid": "k1"]
        let later = try Self.token(header: header, claims: Self.claims(nbf: Self.start.timeIntervalSince1970 + 120))
        let (code, message) = try await status(of: later)
        #expect(code == 401)
        #expect(message == "The access token is not valid yet.")
        let skewed = try Self.token(header: header, claims: Self.claims(nbf: Self.start.timeIntervalSince1970 + 50))
        #expect(try await status(of: skewed).0 == 200, "a clock 50 s behind the issuer's still accepts it")
        let notBefore = Self.start.addingTimeInterval(10)
        let edge = try Self.token(header: header, claims: Self.claims(nbf: notBefore.timeIntervalSince1970))
        #expect(try await status(of: edge, now: notBefore.addingTimeInterval(-59)).0 == 200, "59 s early is within the leeway")
        #expect(try await status(of: edge, now: notBefore.addingTimeInterval(-61)).0 == 401, "61 s early is not")
    }

    @Test("exp is honoured with a 60 s leeway, and must be a sane number")
    func honoursExpiry() async throws {
        let header: [String: Any] = ["alg": "HS256", "kid": "k1"]
        let expiring = try Self.token(header: header, claims: Self.claims(exp: Self.start.timeIntervalSince1970 + 10))
        #expect(try await status(of: expiring, now: Self.start.addingTimeInterval(69)).0 == 200)
        #expect(try await status(of: expiring, now: Self.start.addingTimeInterval(71)).0 == 401)
        for exp: Any in [1e300, -5, 253_402_300_800] {
            let token = try Self.token(header: header, claims: Self.claims(exp: exp))
            let (code, message) = try await status(of: token)
            #expect(code == 401, "exp \(exp)")
            let refusals = ["The access token's times are out of range.", "The access token is malformed or its signature is not valid."]
            #expect(refusals.contains(message ?? ""), "exp \(exp): \(message ?? "")")
        }
        let text = try Self.token(header: header, claims: Self.claims(exp: "tomorrow"))
        #expect(try await status(of: text).0 == 401)
    }
}

extension Data {
    var base64URL: String {
        base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }
}
