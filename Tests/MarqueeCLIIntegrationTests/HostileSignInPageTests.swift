import Foundation
import Hummingbird
import MarqueeTestSupport
import NIOConcurrencyHelpers
import ServerTestSupport
import TextFormatting
import Testing

/// `marquee login` against a server whose device authorization carries terminal escape
/// sequences: what it prints has none of them, and a page that is not a web address is not shown.
@Suite("Signing in with a hostile server", .timeLimit(.minutes(2)))
struct HostileSignInPageTests {
    /// A code that would erase the line, write "evil" to the clipboard (OSC 52) and colour the
    /// terminal (a C1 CSI), as JSON escapes.
    static let hostileCode = #"BCDF\u001b[2K\u001b]52;c;ZXZpbA==\u0007\u009b31m-GHJK"#

    /// Runs `body` with a server whose device authorization answers `verification_uri` as `page`
    /// (`PORT` in it becomes the server's port) and the hostile code, and whose token endpoint
    /// keeps a device waiting.
    func withServer(page: String, _ body: (String) async throws -> Void) async throws {
        let port = NIOLockedValueBox(0)
        try await withLoopbackServer({ router in
            router.post("api/auth/device") { _, _ -> Response in
                let page = page.replacingOccurrences(of: "PORT", with: String(port.withLockedValue { $0 }))
                let offer = #"{"device_code":"d","user_code":"\#(Self.hostileCode)","verification_uri":"\#(page)","expires_in":600,"interval":5}"#
                return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: offer)))
            }
            router.post("api/auth/token") { _, _ -> Response in
                Response(status: .badRequest, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: #"{"error":"authorization_pending"}"#)))
            }
        }) { server in
            port.withLockedValue { $0 = server.port }
            try await body(server.baseURL.absoluteString)
        }
    }

    @Test("the code's escape sequences, C1 controls and OSC 52 are printed as �, nothing of them reaches the terminal")
    func codeIsCleaned() async throws {
        try await withServer(page: "http://127.0.0.1:PORT/device") { api in
            let login = try MarqueeProcess().launch(["login", "--env", api])
            let line = try #require(await login.nextOutputLine(containing: "enter the code"))
            _ = await login.signal(SIGINT)
            #expect(!line.unicodeScalars.contains(where: TerminalText.isUnsafe), "\(line.debugDescription)")
            #expect(line.hasSuffix("enter the code BCDF�[2K�]52;c;ZXZpbA==��31m-GHJK"), "\(line.debugDescription)")
            #expect(!login.lastOutput.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{07}" || $0 == "\u{9B}" })
        }
    }

    @Test("a page that is not an http or https address is not shown: one line says so, non-zero, nothing printed of it", arguments: [
        "javascript:alert(document.cookie)", "file:///etc/passwd", #"http://127.0.0.1:PORT/device\u001b]52;c;ZXZpbA==\u0007"#,
    ])
    func untrustedPageIsRefused(page: String) async throws {
        try await withServer(page: page) { api in
            let login = try await MarqueeProcess().run(["login", "--env", api])
            #expect(login.status == 1)
            #expect(login.standardOutput.isEmpty, "\(login.standardOutput.debugDescription)")
            #expect(login.errorLines.count == 1)
            #expect(login.errorLines.first?.hasPrefix("marquee: the server's sign-in page was not shown: verification_uri ") == true, "\(login.standardError)")
            #expect(!login.standardError.contains("javascript") && !login.standardError.contains("passwd") && !login.standardError.contains("ZXZpbA"))
        }
    }
}

