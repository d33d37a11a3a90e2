import Foundation
import MovieServer
import NIOConcurrencyHelpers
import NetworkTestSupport
import Testing

/// The device authorization grant (RFC 8628) over HTTP, with the sign-in page as a person without
/// a browser's scripts uses it: codes, polls and their answers, approval and denial, expiry,
/// single use, and the metadata that publishes it (RFC 8414).
@Suite("Device flow")
struct DeviceFlowTests {
    @Test("the metadata names the device, token and revocation endpoints and the three grants, at the Host when it names this machine")
    func metadata() async throws {
        try await withServerClient(auth: PersonSignIn.auth()) { server in
            let answer = try await server.get("/.well-known/oauth-authorization-server", headers: [("Host", "localhost:8080")])
            #expect(answer.status == 200)
            let json = try #require(answer.json)
            #expect(json["issuer"] as? String == "http://localhost:8080")
            #expect(json["device_authorization_endpoint"] as? String == "http://localhost:8080/api/auth/device")
            #expect(json["token_endpoint"] as? String == "http://localhost:8080/api/auth/token")
            #expect(json["revocation_endpoint"] as? String == "http://localhost:8080/api/auth/revoke")
            #expect(Set(json["grant_types_supported"] as? [String] ?? []) == ["client_credentials", "refresh_token", "urn:ietf:params:oauth:grant-type:device_code"])
            #expect(try await server.get("/.well-known/oauth-authorization-server", headers: [("Host", "[::1]:8080")]).status == 200)
        }
    }

    @Test("without --public-url, a Host that names another site is refused (400) where the server writes its address: the metadata and a device's verification_uri")
    func foreignHostRefused() async throws {
        try await withServerClient(auth: PersonSignIn.auth()) { server in
            for host in ["evil.example:8080", "localhost:1@evil.example", "localhost:80/x", "127.0.0.1:8080#frag", "[::1]:80@evil.example"] {
                let refused = try await server.get("/.well-known/oauth-authorization-server", headers: [("Host", host)])
                #expect(refused.status == 400, "\(host)")
            }
            let metadata = try await server.get("/.well-known/oauth-authorization-server", headers: [("Host", "evil.example:8080")])
            #expect(metadata.status == 400)
            #expect(!String(decoding: metadata.body, as: UTF8.self).contains("evil.example"))
            let device = try await server.get(
                "/api/auth/device", method: .POST, headers: TokenForms.form + [("Host", "evil.example")],
                body: "client_id=\(ClientCredentials.development.id)&client_secret=\(ClientCredentials.development.secret)"
            )
            #expect(device.status == 400)
            #expect(device.json?["error"] as? String == "invalid_request")
        }
        var auth = PersonSignIn.auth()
        auth.publicURL = "https://movies.example.com"
        try await withServerClient(auth: auth) { server in
            let metadata = try await server.get("/.well-known/oauth-authorization-server", headers: [("Host", "evil.example:8080")])
            #expect(metadata.json?["issuer"] as? String == "https://movies.example.com", "a public URL is used whatever the Host")
        }
    }

    @Test("a code: eight consonants shown as XXXX-XXXX, the page's address and its complete form, an interval and an expiry")
    func start() async throws {
        try await withServerClient(auth: PersonSignIn.auth()) { server in
            let started = try await DeviceFlowClient(server: server).start()
            #expect(started.userCode.wholeMatch(of: /[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}/) != nil, "\(started.userCode)")
            #expect(started.verificationURI == "http://127.0.0.1:\(server.server.port)/device")
            #expect(started.verificationURIComplete == started.verificationURI + "?user_code=" + started.userCode)
            #expect(started.interval == 5)
            #expect(started.expiresIn == 600)
            #expect(started.deviceCode.count >= 43)
            let other = try await DeviceFlowClient(server: server).start()
            #expect(other.userCode != started.userCode)
            #expect(other.deviceCode != started.deviceCode)
        }
    }

    @Test("a device with a wrong secret gets no code; an unknown device code is invalid_grant")
    func refusals() async throws {
        try await withServerClient(auth: PersonSignIn.auth()) { server in
            let wrong = try await server.get(
                "/api/auth/device", method: .POST, headers: TokenForms.form, body: "client_id=marquee-dev&client_secret=guess"
            )
            #expect(wrong.status == 401)
            #expect(wrong.json?["error"] as? String == "invalid_client")
            let poll = try await DeviceFlowClient(server: server).poll("not-a-code")
            #expect(poll.status == 400)
            #expect(poll.error == "invalid_grant")
        }
    }

    @Test("pending until approved, slow_down for a poll inside the interval (which grows by 5 s), then the tokens once; the code is then spent")
    func approve() async throws {
        let clock = TestClock()
        try await withServerClient(auth: PersonSignIn.auth(now: clock.now)) { server in
            let flow = DeviceFlowClient(server: server)
            let started = try await flow.start(deviceName: "alice's laptop")
            #expect(try await flow.poll(started.deviceCode).error == "authorization_pending")
            clock.advance(by: 1)
            let early = try await flow.poll(started.deviceCode)
            #expect(early.status == 400)
            #expect(early.error == "slow_down")
            clock.advance(by: 6)
            #expect(try await flow.poll(started.deviceCode).error == "slow_down", "the interval is 10 s now, and 15 s after this poll")
            clock.advance(by: 15)
            #expect(try await flow.poll(started.deviceCode).error == "authorization_pending")

            let page = PageClient(port: server.server.port)
            try await page.get("/device?user_code=\(started.userCode.lowercased())")
            let signedUp = try await page.post("/device/sign-up", ["name": "Alice", "password": "correct horse"])
            #expect(signedUp.status == 303)
            let offered = try await page.follow(signedUp)
            #expect(offered.html.contains("value=\"\(started.userCode)\""), "the code that came with the link is offered, not yet shown for approval")
            #expect(!offered.html.contains("Approve a device"))
            let confirm = try await page.follow(try await page.post("/device/code", [:]))
            #expect(confirm.html.contains("alices laptop"), "the device's name, without the characters HTML gives a meaning")
            #expect(confirm.html.contains(started.userCode))
            #expect(confirm.html.contains("<strong>alice</strong>"))
            let approved = try await page.post("/device/decide", ["decision": "approve"])
            #expect(approved.status == 200)
            #expect(approved.html.contains("is now signed in as alice"))

            clock.advance(by: 15)
            let granted = try await flow.poll(started.deviceCode)
            #expect(granted.status == 200)
            let claims = TokenClaims.of(try #require(granted.accessToken))
            #expect(claims["sub"] as? String == "alice")
            #expect(claims["client_id"] as? String == "marquee-dev")
            #expect(claims["sid"] is String)
            #expect(granted.refreshToken != nil)
            clock.advance(by: 15)
            let again = try await flow.poll(started.deviceCode)
            #expect(again.status == 400)
            #expect(again.error == "invalid_grant")
            #expect(server.server.grants.deviceCode == 1)
        }
    }

    @Test("of 20 polls at once of an approved code, exactly one gets tokens")
    func singleUseUnderConcurrency() async throws {
        try await withServerClient(auth: PersonSignIn.auth()) { server in
            let flow = DeviceFlowClient(server: server)
            let started = try await flow.start()
            #expect(try await PageClient(port: server.server.port).decide(started.userCode, as: "carol", signUp: true).status == 200)
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<20 { group.addTask { try await flow.poll(started.deviceCode).status } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == 200 }.count == 1)
            #expect(statuses.filter { $0 == 400 }.count == 19)
        }
    }

    @Test("denied on the page: access_denied, and the code cannot be approved afterwards")
    func deny() async throws {
        try await withServerClient(auth: PersonSignIn.auth()) { server in
            let flow = DeviceFlowClient(server: server)
            let started = try await flow.start()
            let page = PageClient(port: server.server.port)
            try await page.get("/device")
            try await page.follow(try await page.post("/device/sign-up", ["name": "dave", "password": "correct horse"]))
            try await page.follow(try await page.post("/device/code", ["user_code": started.userCode]))
            let denied = try await page.post("/device/decide", ["decision": "deny"])
            #expect(denied.html.contains("was not let in"))
            #expect(try await flow.poll(started.deviceCode).error == "access_denied")
            let retyped = try await page.post("/device/code", ["user_code": started.userCode])
            #expect(retyped.status == 400, "a decided code is not offered again")
        }
    }

    @Test("a code past its expiry: expired_token to the device, and the page does not offer it")
    func expiry() async throws {
        let clock = TestClock()
        try await withServerClient(auth: PersonSignIn.auth(now: clock.now)) { server in
            let flow = DeviceFlowClient(server: server)
            let started = try await flow.start()
            clock.advance(by: 601)
            #expect(try await flow.poll(started.deviceCode).error == "expired_token")
            let page = PageClient(port: server.server.port)
            try await page.get("/device")
            try await page.follow(try await page.post("/device/sign-up", ["name": "erin", "password": "correct horse"]))
            let entered = try await page.post("/device/code", ["user_code": started.userCode])
            #expect(entered.status == 400)
            #expect(entered.html.contains("expired"))
        }
    }

    @Test("a device polling with another client's credentials gets invalid_grant, and the code stays its own")
    func anotherClient() async throws {
        let other = ClientCredentials(id: "other-app", secret: "other-secret")
        try await withServerClient(auth: PersonSignIn.auth(clients: [.development, other])) { server in
            let started = try await DeviceFlowClient(server: server).start()
            let stolen = try await DeviceFlowClient(server: server, client: other).poll(started.deviceCode)
            #expect(stolen.error == "invalid_grant")
        }
    }
}

/// A clock the test moves.
final class TestClock: Sendable {
    private let current = NIOLockedValueBox(Date(timeIntervalSince1970: 1_800_000_000))

    var now: @Sendable () -> Date { { [current] in current.withLockedValue { $0 } } }

    func advance(by seconds: TimeInterval) {
        current.withLockedValue { $0.addTimeInterval(seconds) }
    }
}
