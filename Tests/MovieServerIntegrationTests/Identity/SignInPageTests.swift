import Foundation
import Logging
import MarqueeTestSupport
import MovieServer
import NIOConcurrencyHelpers
import NetworkTestSupport
import ServerTestSupport
import Testing

/// The sign-in page as an attacker tries it: forms from elsewhere, guessing, names that are HTML,
/// sessions that outlive a password, and what its answers and logs give away.
@Suite("The sign-in page")
struct SignInPageTests {
    @Test("a form without the page's CSRF token is a 403 and changes nothing")
    func csrf() async throws {
        try await withServerClient(auth: PersonSignIn.auth()) { server in
            let page = PageClient(port: server.server.port)
            try await page.get("/device")
            let forged = try await page.post("/device/sign-up", ["name": "mallory", "password": "correct horse"], csrf: "forged")
            #expect(forged.status == 403)
            #expect(try await server.server.server.accounts.list().isEmpty)
            let stranger = PageClient(port: server.server.port)
            let noSession = try await stranger.post("/device/sign-up", ["name": "mallory", "password": "correct horse"], csrf: page.csrf)
            #expect(noSession.status == 403, "another browser's token is worth nothing without its cookie")
            #expect(try await server.server.server.accounts.list().isEmpty)
        }
    }

    @Test("the session cookie is HttpOnly, SameSite=Lax, for /device only, Secure behind an https public URL; a new one is issued at sign-in")
    func cookie() async throws {
        var auth = PersonSignIn.auth()
        auth.publicURL = "https://movies.example"
        try await withServerClient(auth: auth) { server in
            let page = PageClient(port: server.server.port)
            try await page.get("/device")
            let before = try #require(page.cookie)
            let cookie = try #require(page.setCookies.first)
            #expect(cookie.contains("HttpOnly"))
            #expect(cookie.contains("SameSite=Lax"))
            #expect(cookie.contains("Path=/device"))
            #expect(cookie.contains("Secure"))
            try await page.follow(try await page.post("/device/sign-up", ["name": "alice", "password": "correct horse"]))
            #expect(page.cookie != before, "a session id seen before signing in is not the signed-in one")
            let started = try await DeviceFlowClient(server: server).start()
            #expect(started.verificationURI == "https://movies.example/device")
        }
        try await withServerClient(auth: PersonSignIn.auth()) { server in
            let page = PageClient(port: server.server.port)
            try await page.get("/device")
            #expect(page.setCookies.first?.contains("Secure") == false)
        }
    }

    @Test("pages: labels for every field, no script, a policy that forbids scripts and framing, not cached; a device name of HTML is shown as text")
    func markup() async throws {
        try await withServerClient(auth: PersonSignIn.auth()) { server in
            let page = PageClient(port: server.server.port)
            let signIn = try await page.get("/device")
            #expect(signIn.status == 200)
            #expect(signIn.headers.first(name: "content-type") == "text/html; charset=utf-8")
            #expect(signIn.headers.first(name: "cache-control") == "no-store")
            #expect(signIn.headers.first(name: "content-security-policy")?.contains("default-src 'none'") == true)
            #expect(signIn.headers.first(name: "x-frame-options") == "DENY")
            #expect(signIn.html.contains("<meta name=\"viewport\""))
            #expect(!signIn.html.lowercased().contains("<script"))
            let ids = signIn.html.matches(of: /<input type="(?:text|password)" id="([^"]+)"/).map { String($0.1) }
            #expect(ids.count == 4)
            for id in ids { #expect(signIn.html.contains("<label for=\"\(id)\">"), "a label for \(id)") }

            let started = try await DeviceFlowClient(server: server).start(deviceName: "<script>alert(1)</script>")
            try await page.get("/device?user_code=\(started.userCode)")
            try await page.follow(try await page.post("/device/sign-up", ["name": "alice", "password": "correct horse"]))
            let confirm = try await page.follow(try await page.post("/device/code", [:]))
            #expect(!confirm.html.contains("<script>"))
            #expect(confirm.html.contains("scriptalert(1)/script"), "shown as text, its markup characters dropped")
        }
    }

    @Test("an unknown name and a wrong password get the same page; past 10 failures from one address, a 429 with Retry-After, also for the right password")
    func guessing() async throws {
        try await withServerClient(auth: PersonSignIn.auth()) { server in
            try await server.server.server.accounts.create(name: "alice", password: "correct horse")
            let page = PageClient(port: server.server.port)
            try await page.get("/device")
            let unknown = try await page.post("/device/sign-in", ["name": "nobody", "password": "whatever1"])
            let wrong = try await page.post("/device/sign-in", ["name": "alice", "password": "whatever1"])
            #expect(unknown.status == 401)
            #expect(wrong.status == 401)
            let scrub = { (html: String) in html.replacingOccurrences(of: "nobody", with: "NAME").replacingOccurrences(of: "alice", with: "NAME") }
            #expect(scrub(unknown.html) == scrub(wrong.html))
            for _ in 0..<8 { _ = try await page.post("/device/sign-in", ["name": "alice", "password": "guess"]) }
            let limited = try await page.post("/device/sign-in", ["name": "alice", "password": "correct horse"])
            #expect(limited.status == 429)
            let wait = try #require(limited.headers.first(name: "retry-after").flatMap(Int.init))
            #expect((1...600).contains(wait))
        }
    }

    @Test("a new password ends the page's session too; the page's log names no password, code or token")
    func passwordEndsSessionAndLogsStayClean() async throws {
        let log = LogCapture()
        try await withMovieServer(auth: PersonSignIn.auth(), logger: log.logger) { running in
            let server = ServerClient(server: running)
            let started = try await DeviceFlowClient(server: server).start()
            let page = PageClient(port: running.port)
            try await page.get("/device?user_code=\(started.userCode)")
            try await page.follow(try await page.post("/device/sign-up", ["name": "alice", "password": "correct horse"]))
            try await running.server.accounts.setPassword(name: "alice", password: "another horse")
            let after = try await page.get("/device")
            #expect(after.html.contains("id=\"sign-in-password\""), "signed out: the sign-in form again")
            let (access, refresh) = try await PersonSignIn.tokens("bob", on: server)
            let text = log.messages.joined(separator: "\n")
            for secret in ["correct horse", "another horse", started.userCode, started.deviceCode, access, refresh] {
                #expect(!text.contains(secret))
            }
            #expect(text.contains("device authorization"))
            #expect(text.contains("GET /device"), "requests are logged, without their query")
        }
    }

    @Test("with sign-up off, the page has no sign-up form and refuses one")
    func signUpOff() async throws {
        var auth = PersonSignIn.auth()
        auth.allowsSignUp = false
        try await withServerClient(auth: auth) { server in
            let page = PageClient(port: server.server.port)
            let shown = try await page.get("/device")
            #expect(!shown.html.contains("/device/sign-up"))
            let refused = try await page.post("/device/sign-up", ["name": "alice", "password": "correct horse"])
            #expect(refused.status == 403)
            #expect(try await server.server.server.accounts.list().isEmpty)
        }
    }

    @Test("a code put in the session by another tab or page cannot be decided by a form that showed another: 409, neither approved")
    func swappedCode() async throws {
        try await withServerClient(auth: PersonSignIn.auth()) { server in
            let flow = DeviceFlowClient(server: server)
            let mine = try await flow.start(deviceName: "my laptop"), theirs = try await flow.start(deviceName: "not mine")
            let page = PageClient(port: server.server.port)
            try await page.get("/device")
            try await page.follow(try await page.post("/device/sign-up", ["name": "alice", "password": "correct horse"]))
            let confirm = try await page.follow(try await page.post("/device/code", ["user_code": mine.userCode]))
            #expect(confirm.html.contains("my laptop"))
            let shownCode = try #require(page.formCode)
            let otherTab = try await page.post("/device/code", ["user_code": theirs.userCode])
            #expect(otherTab.status == 303)
            let decided = try await page.post("/device/decide", ["decision": "approve", "user_code": shownCode])
            #expect(decided.status == 409)
            #expect(try await flow.poll(mine.deviceCode).error == "authorization_pending")
            #expect(try await flow.poll(theirs.deviceCode).error == "authorization_pending")
        }
    }

    @Test("a device name that hides markup behind a prepended mark shows as text: no markup of it reaches the page")
    func prependedMarkup() async throws {
        try await withServerClient(auth: PersonSignIn.auth()) { server in
            let name = "\u{0D4E}<meta http-equiv=refresh content=0;url=https://evil.example \u{0D4E}>"
            let started = try await DeviceFlowClient(server: server).start(deviceName: name)
            let page = PageClient(port: server.server.port)
            try await page.get("/device")
            try await page.follow(try await page.post("/device/sign-up", ["name": "alice", "password": "correct horse"]))
            let confirm = try await page.follow(try await page.post("/device/code", ["user_code": started.userCode]))
            #expect(confirm.html.contains("Approve a device"))
            #expect(!confirm.html.contains("<meta http-equiv"), "\(confirm.html)")
            #expect(confirm.html.contains("meta http-equiv=refresh content=0;url=https://evil.example"), "shown as text, its markup characters dropped")
        }
    }

    @Test("a device approved but not yet redeemed gets nothing once the password changes, or the account is removed")
    func approvalsWithdrawn() async throws {
        try await withServerClient(auth: PersonSignIn.auth()) { server in
            let flow = DeviceFlowClient(server: server)
            let accounts = server.server.server.accounts
            let first = try await flow.start()
            #expect(try await PageClient(port: server.server.port).decide(first.userCode, as: "alice", signUp: true).status == 200)
            try await accounts.setPassword(name: "alice", password: "a new password")
            #expect(try await flow.poll(first.deviceCode).error == "access_denied")

            let second = try await flow.start()
            #expect(try await PageClient(port: server.server.port).decide(second.userCode, as: "alice", password: "a new password", signUp: false).status == 200)
            try await accounts.remove(name: "alice")
            try await accounts.create(name: "alice", password: "someone else")
            #expect(try await flow.poll(second.deviceCode).error == "access_denied", "the new alice is not the one who approved")
        }
    }

    @Test("guessing codes is limited: past 10 unknown codes, a 429; 30 wrong passwords at once get at most 10 checks; failed sign-ins leave sign-up open")
    func guessingLimits() async throws {
        try await withServerClient(auth: PersonSignIn.auth()) { server in
            let page = PageClient(port: server.server.port)
            try await page.get("/device")
            try await page.follow(try await page.post("/device/sign-up", ["name": "alice", "password": "correct horse"]))
            for _ in 0..<10 { #expect(try await page.post("/device/code", ["user_code": "BBBB-BBBB"]).status == 400) }
            let limited = try await page.post("/device/code", ["user_code": "CCCC-CCCC"])
            #expect(limited.status == 429)
            #expect(limited.headers.first(name: "retry-after") != nil)

            var browsers: [PageClient] = []
            for _ in 0..<30 {
                let browser = PageClient(port: server.server.port)
                try await browser.get("/device")
                browsers.append(browser)
            }
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for browser in browsers { group.addTask { try await browser.post("/device/sign-in", ["name": "bob", "password": "wrong guess"]).status } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            let other = browsers[0]
            #expect(statuses.filter { $0 == 401 }.count <= 10, "\(statuses)")
            #expect(statuses.filter { $0 == 429 }.count >= 20)
            let signUp = try await other.post("/device/sign-up", ["name": "carol", "password": "correct horse"])
            #expect(signUp.status == 303, "sign-ups are counted apart from failed sign-ins")
        }
    }
}
