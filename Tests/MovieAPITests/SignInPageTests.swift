import Foundation
import MarqueeTestSupport
import MovieAPI
import Networking
import Testing

/// The pages a device authorization names are shown to a person only when they are web
/// addresses: an `http` or `https` URL with a host, in the visible ASCII a URI is made of.
@Suite("Device sign-in pages")
struct SignInPageTests {
    static func start(page: String, complete: String? = nil) async throws(DeviceSignInError) -> DeviceCodeOffer {
        let completeField = complete.map { #","verification_uri_complete":"\#($0)""# } ?? ""
        let offer = #"{"device_code":"d","user_code":"BCDF-GHJK","verification_uri":"\#(page)"\#(completeField),"expires_in":600,"interval":5}"#
        let transport = StubTransport(rules: [.path(.post, "auth/device", .status(200, body: offer))])
        let signIn = DeviceSignIn(client: APIClient(baseURL: URL(string: "http://api.test/api/")!, transport: transport), clientCredentials: .testClient)
        return try await signIn.start(deviceName: "test", api: "the test API")
    }

    @Test("http and https pages with a host are shown", arguments: ["http://127.0.0.1:8080/device", "https://movies.example/device", "HTTPS://movies.example:8443/device?lang=en"])
    func webPages(page: String) async throws {
        let offer = try await Self.start(page: page, complete: page + (page.contains("?") ? "&" : "?") + "user_code=BCDF-GHJK")
        #expect(offer.verificationURI == page)
    }

    @Test("any other page is refused with the reason, and the page is not repeated", arguments: [
        ("javascript:alert(1)", "verification_uri is not an http or https address"),
        ("file:///etc/passwd", "verification_uri is not an http or https address"),
        ("marquee://device", "verification_uri is not an http or https address"),
        ("/device", "verification_uri is not an http or https address"),
        ("http:///device", "verification_uri names no host"),
        ("", "verification_uri holds characters a web address cannot hold"),
        (#"http://evil.example/\u001b]52;c;ZXZpbA==\u0007"#, "verification_uri holds characters a web address cannot hold"),
        (#"http://evil.example/\u009b31m"#, "verification_uri holds characters a web address cannot hold"),
        ("http://evil.example/a page", "verification_uri holds characters a web address cannot hold"),
    ])
    func otherPages(page: String, problem: String) async throws {
        await #expect {
            try await Self.start(page: page)
        } throws: { error in
            guard case let .untrustedPage(reason) = error as? DeviceSignInError else { return false }
            return reason == problem
        }
    }

    @Test("a complete page that is not a web address is refused too")
    func completePage() async throws {
        await #expect {
            try await Self.start(page: "https://movies.example/device", complete: "javascript:alert(1)")
        } throws: { error in
            guard case let .untrustedPage(reason) = error as? DeviceSignInError else { return false }
            return reason == "verification_uri_complete is not an http or https address"
        }
        #expect(DeviceSignInError.untrustedPage("verification_uri names no host").description
            == "the server's sign-in page was not shown: verification_uri names no host; nothing was signed in (is --env the server you meant?)")
    }
}
