import Foundation
import MarqueeTestSupport
import NetworkTestSupport
import Testing

/// `serve --signing-keys FILE` and `MARQUEE_SIGNING_KEYS` as an operator uses them: keys accepted,
/// and a rotation across a restart that signs nobody out.
@Suite("Signing keys through serve")
struct SigningKeyCommandTests {
    let marquee = MarqueeProcess()
    static let first = "k1 " + String(repeating: "a", count: 40)
    static let second = "k2 " + String(repeating: "b", count: 40)

    /// Runs `serve` with `arguments` and `environment` until `body` returns.
    func withServe<Result>(_ arguments: [String], environment: [String: String] = [:], _ body: (Int) async throws -> Result) async throws -> Result {
        var process = marquee
        process.environment.merge(environment) { $1 }
        let server = try process.launch(["serve", "--port", "0"] + arguments)
        let line = await server.nextErrorLine(containing: "Marquee movie API listening on")
        guard let line, let port = URL(string: String(line.split(separator: " ").last ?? ""))?.port else {
            _ = await server.signal(SIGKILL)
            throw ServerDidNotStart(output: server.lastOutput)
        }
        return try await finally(try await body(port)) { _ = await server.signal(SIGTERM) }
    }

    struct ServerDidNotStart: Error, CustomStringConvertible {
        let output: String
        var description: String { "serve did not start: \(output)" }
    }

    static func token(from port: Int) async throws -> String {
        let answer = try await LoopbackHTTP.send(
            port: port, "/api/auth/token", method: "POST", headers: [("Content-Type", "application/x-www-form-urlencoded")],
            body: "grant_type=client_credentials&client_id=marquee-dev&client_secret=marquee-dev-secret"
        )
        return try #require(answer.string("access_token"), "\(answer.status) \(answer.text)")
    }

    static func keyID(of token: String) -> String? {
        guard let header = token.split(separator: ".").first else { return nil }
        var base64 = header.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        return Data(base64Encoded: base64).flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] }?["kid"] as? String
    }

    static func status(of token: String, on port: Int) async throws -> Int {
        try await LoopbackHTTP.send(port: port, "/api/movies/1", headers: [("Authorization", "Bearer \(token)")]).status
    }

    @Test("a key file is accepted; after a restart with a second key appended, old tokens still work and new ones name the new key; MARQUEE_SIGNING_KEYS is the same ring")
    func rotatesAcrossARestart() async throws {
        let keys = TestFolders.temporary.appendingPathComponent("marquee-keys-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: keys) }
        try Data((Self.first + "\n").utf8).write(to: keys)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: keys.path)

        let old = try await withServe(["--signing-keys", keys.path]) { port in
            let token = try await Self.token(from: port)
            #expect(Self.keyID(of: token) == "k1")
            #expect(try await Self.status(of: token, on: port) == 200)
            return token
        }

        try Data((Self.first + "\n" + Self.second + "\n").utf8).write(to: keys)
        let new = try await withServe(["--signing-keys", keys.path]) { port in
            #expect(try await Self.status(of: old, on: port) == 200, "a token of the older key outlives the restart")
            let token = try await Self.token(from: port)
            #expect(Self.keyID(of: token) == "k2", "new tokens are signed with the newest key")
            return token
        }

        try await withServe([], environment: ["MARQUEE_SIGNING_KEYS": Self.first + ";" + Self.second]) { port async throws in
            #expect(try await Self.status(of: old, on: port) == 200)
            #expect(try await Self.status(of: new, on: port) == 200)
        }
        try await withServe([], environment: ["MARQUEE_SIGNING_KEYS": Self.second]) { port async throws in
            #expect(try await Self.status(of: old, on: port) == 401, "once the old key is dropped, its tokens are refused")
            #expect(try await Self.status(of: new, on: port) == 200)
        }
    }
}
