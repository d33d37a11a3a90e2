import Foundation
@testable import MovieServer
import NetworkTestSupport
import Testing

/// What a stranger can do to the sign-in page and, through it, to a person: fill its storage with
/// visits, guess codes, outlive a sign-out everywhere, replace a session with a refused form,
/// sign in with a copied row, or be counted as everyone behind a proxy.
@Suite("The sign-in page against strangers", .timeLimit(.minutes(3)))
struct SignInPageGuardTests {
    static func storedSessions(_ storage: MemoryStorage) -> [String] {
        storage.identity.withLockedValue { Array($0.webSessions.keys) }
    }

    @Test("300 cookieless visits store nothing; a sign-in stores one session, under a digest of its key, that a copy of the row does not open")
    func visitsStoreNothing() async throws {
        let storage = MemoryStorage(catalog: try Catalog.reference())
        try await withServerClient(auth: PersonSignIn.auth(), storage: storage) { server in
            for _ in 0..<300 {
                #expect(try await PageClient(port: server.server.port).get("/device").status == 200)
            }
            #expect(Self.storedSessions(storage).isEmpty)
            #expect(storage.attempts.keyCount == 0, "a visit counts no attempt either")

            let page = PageClient(port: server.server.port)
            try await page.get("/device")
            #expect(Self.storedSessions(storage).isEmpty, "the visitor's token is in a signed cookie")
            try await page.follow(try await page.post("/device/sign-up", ["name": "alice", "password": "correct horse"]))
            #expect(page.lastPage.contains("id=\"user-code\""), "signed in: \(page.history)")
            let stored = Self.storedSessions(storage)
            #expect(stored.count == 1)
            let sessionID = try #require(page.cookies["marquee_session"])
            #expect(stored.allSatisfy { $0.hasPrefix("page.sha256:") && !$0.contains(sessionID) })

            let thief = PageClient(port: server.server.port)
            thief.setCookie("marquee_session", String(try #require(stored.first).dropFirst("page.".count)))
            #expect(!(try await thief.get("/device")).html.contains("id=\"user-code\""), "the stored key is not a cookie")
        }
    }

    @Test("a form that cannot be read is a 400 that says so, not an empty form refused as stale; nothing is stored")
    func unreadableForm() async throws {
        let storage = MemoryStorage(catalog: try Catalog.reference())
        try await withServerClient(auth: PersonSignIn.auth(), storage: storage) { server in
            let page = PageClient(port: server.server.port)
            try await page.get("/device")
            let csrf = try #require(page.csrf)
            let answer = try await page.postRaw("/device/sign-up", body: "csrf=\(csrf)&name=%zz&password=correct%20horse")
            #expect(answer.status == 400, "\(answer.html.prefix(300))")
            #expect(answer.html.contains("This form could not be read"))
            #expect(!answer.html.contains("too old"))
            #expect(Self.storedSessions(storage).isEmpty)
            #expect(storage.accounts().isEmpty, "no account was made")
        }
    }

    @Test("a refused cross-site POST to sign-out is a 403 that leaves the session as it was and sets no session cookie")
    func refusedFormKeepsTheSession() async throws {
        try await withServerClient(auth: PersonSignIn.auth()) { server in
            let page = PageClient(port: server.server.port)
            try await page.get("/device")
            try await page.follow(try await page.post("/device/sign-up", ["name": "alice", "password": "correct horse"]))
            let session = try #require(page.cookies["marquee_session"])
            let before = page.setCookies.count
            let forged = try await page.post("/device/sign-out", [:], csrf: "from-another-site")
            #expect(forged.status == 403)
            #expect(!page.setCookies.dropFirst(before).contains { $0.hasPrefix("marquee_session=") })
            #expect(page.cookies["marquee_session"] == session)
            #expect(try await page.get("/device").html.contains("id=\"user-code\""), "still signed in")
        }
    }

    @Test("a code in the page's address only fills the code form: guesses by GET show no device and are never tried; every typed code counts")
    func codesByAddressAreNotTried() async throws {
        try await withServerClient(auth: PersonSignIn.auth()) { server in
            let started = try await DeviceFlowClient(server: server).start(deviceName: "a stranger's tv")
            let page = PageClient(port: server.server.port)
            try await page.get("/device")
            try await page.follow(try await page.post("/device/sign-up", ["name": "mallory", "password": "correct horse"]))
            for _ in 0..<30 {
                let guess = try await page.get("/device?user_code=\(UserCode.random().letters)")
                #expect(guess.status == 200)
                #expect(!guess.html.contains("Approve a device"))
            }
            let hit = try await page.get("/device?user_code=\(started.userCode)")
            #expect(!hit.html.contains("Approve a device") && !hit.html.contains("a stranger's tv"), "a right code by GET shows no device either")
            #expect(page.formCode == started.userCode, "it is only filled in")

            for _ in 0..<10 {
                #expect(try await page.post("/device/code", ["user_code": UserCode.random().letters]).status == 400)
            }
            let limited = try await page.post("/device/code", ["user_code": started.userCode])
            #expect(limited.status == 429, "the eleventh typed code waits, right or not")
        }
    }

    @Test("signing out everywhere ends the page's session too: the page asks to sign in again and cannot approve a device")
    func signOutEverywhereEndsThePage() async throws {
        try await withServerClient(auth: PersonSignIn.auth()) { server in
            let device = try await PersonSignIn.tokens("alice", on: server)
            let page = PageClient(port: server.server.port)
            try await page.get("/device")
            try await page.follow(try await page.post("/device/sign-in", ["name": "alice", "password": "correct horse"]))
            let started = try await DeviceFlowClient(server: server).start(deviceName: "new phone")
            try await page.follow(try await page.post("/device/code", ["user_code": started.userCode]))
            #expect(page.lastPage.contains("Approve a device"))

            let listed = try await server.get("/api/account/sessions", headers: [("Authorization", "Bearer \(device.access)")])
            let devices = (listed.json?["sessions"] as? [[String: Any]])?.compactMap { $0["device"] as? String } ?? []
            #expect(devices.filter { $0 == "the sign-in page in a web browser" }.count == 2, "both page sessions are listed: \(devices)")
            #expect(try await server.get("/api/account/sessions", method: .DELETE, headers: [("Authorization", "Bearer \(device.access)")]).status == 200)

            let decided = try await page.post("/device/decide", ["decision": "approve"])
            #expect(decided.status == 403, "the session is gone, and its form with it")
            #expect(try await DeviceFlowClient(server: server).poll(started.deviceCode).error == "authorization_pending")
            #expect(try await page.get("/device").html.contains("/device/sign-in"), "the page asks to sign in")
        }
    }

    @Test("once signed in, only the session's CSRF token is taken: a visitor cookie planted by a sibling site, with its own token, approves nothing")
    func plantedVisitorCookieIsRefused() async throws {
        try await withServerClient(auth: PersonSignIn.auth()) { server in
            let attacker = PageClient(port: server.server.port)
            try await attacker.get("/device")
            let plantedCookie = try #require(attacker.cookies["marquee_visitor"]), plantedToken = try #require(attacker.csrf)
            let started = try await DeviceFlowClient(server: server).start(deviceName: "the attacker's tv")

            let victim = PageClient(port: server.server.port)
            try await victim.get("/device")
            try await victim.follow(try await victim.post("/device/sign-up", ["name": "alice", "password": "correct horse"]))
            victim.setCookie("marquee_visitor", plantedCookie)
            let code = try await victim.post("/device/code", ["user_code": started.userCode], csrf: plantedToken)
            #expect(code.status == 403)
            #expect(try await DeviceFlowClient(server: server).poll(started.deviceCode).error == "authorization_pending")
        }
    }

    @Test("a form a browser says came from another site or origin is refused, whatever its token; the page's own is taken")
    func crossOriginFormsAreRefused() async throws {
        try await withServerClient(auth: PersonSignIn.auth()) { server in
            let page = PageClient(port: server.server.port)
            try await page.get("/device")
            for (name, value) in [("Sec-Fetch-Site", "cross-site"), ("Sec-Fetch-Site", "same-site"), ("Origin", "https://evil.example"), ("Origin", "http://127.0.0.1:1")] {
                page.extraHeaders = [(name, value)]
                let refused = try await page.post("/device/sign-up", ["name": "mallory", "password": "correct horse"])
                #expect(refused.status == 403, "\(name): \(value)")
            }
            #expect(try await server.server.server.accounts.list().isEmpty)
            page.extraHeaders = [("Sec-Fetch-Site", "same-origin"), ("Origin", "http://127.0.0.1:\(server.server.port)")]
            let signedUp = try await page.post("/device/sign-up", ["name": "alice", "password": "correct horse"])
            #expect(signedUp.status == 303)
            try await page.follow(signedUp)
            page.extraHeaders = [("Sec-Fetch-Site", "same-origin"), ("Origin", "null")]
            #expect(try await page.post("/device/sign-out", [:]).status == 303, "the null origin a no-referrer page's form sends")
        }
    }

    @Test("signing in again on the same page ends the session it replaces: the account keeps one page session")
    func signingInAgainEndsTheOldSession() async throws {
        let storage = MemoryStorage(catalog: try Catalog.reference())
        try await withServerClient(auth: PersonSignIn.auth(), storage: storage) { server in
            _ = try await server.server.server.accounts.create(name: "alice", password: "correct horse")
            let page = PageClient(port: server.server.port)
            try await page.get("/device")
            for _ in 0..<3 {
                try await page.follow(try await page.post("/device/sign-in", ["name": "alice", "password": "correct horse"]))
            }
            #expect(storage.signIns(ofAccount: "alice").filter { $0.clientID == SignInPage.clientID }.count == 1)
        }
    }

    @Test("an address starts at most 30 page sessions in ten minutes; an account keeps its 10 most recent")
    func sessionsAreBounded() async throws {
        let storage = MemoryStorage(catalog: try Catalog.reference())
        try await withServerClient(auth: PersonSignIn.auth(), storage: storage) { server in
            _ = try await server.server.server.accounts.create(name: "alice", password: "correct horse")
            for attempt in 0..<SignInThrottle.sessionLimit {
                let page = PageClient(port: server.server.port)
                try await page.get("/device")
                #expect(try await page.post("/device/sign-in", ["name": "alice", "password": "correct horse"]).status == 303, "sign-in \(attempt)")
            }
            let page = PageClient(port: server.server.port)
            try await page.get("/device")
            #expect(try await page.post("/device/sign-in", ["name": "alice", "password": "correct horse"]).status == 429)
            let pageSessions = storage.signIns(ofAccount: "alice").filter { $0.clientID == SignInPage.clientID }
            #expect(pageSessions.count == SignInPage.sessionsPerAccount)
            #expect(Self.storedSessions(storage).count == SignInThrottle.sessionLimit, "stored rows of ended sessions expire; each was one person's sign-in")
        }
    }
}
