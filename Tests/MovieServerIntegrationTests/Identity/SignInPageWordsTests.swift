import Foundation
import MarqueeTestSupport
import MovieServer
import MovieServerSQLite
import NetworkTestSupport
import Testing

/// What the sign-in page says to a person who makes a mistake, and where the server's root sends them.
@Suite("The sign-in page's words")
struct SignInPageWordsTests {
    /// The account the page says is signed in, as shown ("" when it names none).
    static func signedInAs(_ html: String) -> String? {
        html.firstMatch(of: #/Signed in as <strong>([^<]*)</strong>/#).map { String($0.1) }
    }

    @Test("after a wrong code, a used one and an expired one, the page still names the account signed in (in memory, and on SQLite)", arguments: [false, true])
    func accountAfterAWrongCode(onSQLite: Bool) async throws {
        var auth = PersonSignIn.auth()
        auth.deviceCodeLifetime = .seconds(1)
        let folder = TestFolders.temporary.appendingPathComponent("page-words-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let storage: (any ServerStorage)? = onSQLite ? try await SQLiteStorage(path: folder.appendingPathComponent("server.sqlite").path) : nil
        try await withServerClient(auth: auth, storage: storage) { server in
            let page = PageClient(port: server.server.port)
            try await page.get("/device")
            let signedUp = try await page.follow(try await page.post("/device/sign-up", ["name": "alice", "password": "correct horse"]))
            #expect(Self.signedInAs(signedUp.html) == "alice")
            let wrong = try await page.post("/device/code", ["user_code": "BCDF-GHJK"])
            #expect(wrong.status == 400)
            #expect(Self.signedInAs(wrong.html) == "alice", "\(wrong.html)")
            let expiring = try await DeviceFlowClient(server: server).start()
            try await Task.sleep(for: .seconds(2))
            let expired = try await page.post("/device/code", ["user_code": expiring.userCode])
            #expect(expired.html.contains("or it expired"))
            #expect(Self.signedInAs(expired.html) == "alice", "\(expired.html)")
            let again = try await page.get("/device")
            #expect(Self.signedInAs(again.html) == "alice", "\(again.html)")
        }
    }

    @Test("a sign-up refused keeps the typed name in its field, escaped")
    func signUpKeepsTheName() async throws {
        try await withServerClient(auth: PersonSignIn.auth()) { server in
            let page = PageClient(port: server.server.port)
            try await page.get("/device")
            let short = try await page.post("/device/sign-up", ["name": "alice", "password": "short"])
            #expect(short.status == 400)
            #expect(short.html.contains(#"id="sign-up-name" name="name" value="alice""#), "\(short.html)")
            let odd = try await page.post("/device/sign-up", ["name": #"bob"><b>x"#, "password": "correct horse"])
            #expect(odd.status == 400)
            #expect(!odd.html.contains("<b>x"), "the name is shown as text")
            #expect(odd.html.contains(#"id="sign-up-name" name="name" value="bobbx""#), "\(odd.html)")
        }
    }

    @Test("the code to compare on the approval page never wraps: its style keeps it on one line")
    func codeOnOneLine() async throws {
        try await withServerClient(auth: PersonSignIn.auth()) { server in
            let page = PageClient(port: server.server.port)
            let started = try await DeviceFlowClient(server: server).start()
            try await page.get("/device?user_code=\(started.userCode)")
            try await page.follow(try await page.post("/device/sign-up", ["name": "alice", "password": "correct horse"]))
            let confirm = try await page.follow(try await page.post("/device/code", [:]))
            #expect(confirm.html.contains(#"<span class="code">\#(started.userCode)</span>"#))
            let style = try #require(confirm.html.firstMatch(of: #/\.code \{([^}]*)\}/#).map { String($0.1) })
            #expect(style.contains("white-space: nowrap"), "\(style)")
        }
    }

    @Test("the root sends a browser to the sign-in page and the API, and answers a program in JSON")
    func root() async throws {
        try await withServerClient(auth: PersonSignIn.auth()) { server in
            let browser = PageClient(port: server.server.port)
            browser.extraHeaders = [("Accept", "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8")]
            let home = try await browser.get("/")
            #expect(home.status == 200)
            #expect(home.headers.first(name: "content-type") == "text/html; charset=utf-8")
            #expect(home.headers.first(name: "vary") == "Accept")
            #expect(home.html.contains(#"<a href="/device">"#))
            #expect(home.html.contains(#"<a href="/api/openapi.yaml">"#))
            #expect(!home.html.lowercased().contains("<script"))

            let program = PageClient(port: server.server.port)
            program.extraHeaders = [("Accept", "application/json")]
            let answer = try await program.get("/")
            #expect(answer.status == 200)
            #expect(answer.headers.first(name: "content-type") == "application/json")
            let links = try JSONSerialization.jsonObject(with: Data(answer.html.utf8)) as? [String: String]
            #expect(links == ["api": "/api/", "openapi": "/api/openapi.yaml", "signIn": "/device"])
        }
    }
}
