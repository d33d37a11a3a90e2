import Foundation
import MarqueeTestSupport
import MovieAPI
import Movies
import Networking
import Testing

/// A person's expired sign-in, renewed through the stack the app builds, over a stub token
/// endpoint that fails each way a server or a proxy does: only `invalid_grant` ends the sign-in;
/// every other answer keeps it, refresh token and all, in the credentials file, and the next
/// command renews it.
@Suite("A person's renewal that fails")
struct RenewalKeepsSignInTests {
    /// How the token endpoint answers the refresh.
    enum Answer: String, Sendable, CaseIterable, CustomTestStringConvertible {
        case unavailable503, proxyPage502, serverError500, tooManyRequests429, timeOut, connectionRefused, unreadable200
        case invalidClient400, invalidClient401, invalidRequest400

        var testDescription: String { rawValue }

        var response: StubResponse {
            switch self {
            case .unavailable503: .status(503, body: #"{"error":"temporarily_unavailable","error_description":"the database is not answering"}"#)
            case .proxyPage502: .status(502, body: "<html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1><hr>nginx</body></html>", contentType: "text/html")
            case .serverError500: .status(500, body: #"{"error":"server_error","error_description":"boom"}"#)
            case .tooManyRequests429: .response(APIResponse(status: .init(code: 429), headerFields: [.retryAfter: "30", .contentType: "application/json"], body: Data(#"{"error":"slow_down"}"#.utf8)))
            case .timeOut: .delayed(.seconds(60), .status(200))
            case .connectionRefused: .failure(.cannotConnect(host: "api.test", port: 80, reason: "connection refused"))
            case .unreadable200: .status(200, body: "<html>Service Temporarily Unavailable</html>", contentType: "text/html")
            case .invalidClient400: .status(400, body: #"{"error":"invalid_client","error_description":"The client id or secret is not valid."}"#)
            case .invalidClient401: .status(401, body: #"{"error":"invalid_client","error_description":"The client id or secret is not valid."}"#)
            case .invalidRequest400: .status(400, body: #"{"error":"invalid_request","error_description":"The refresh_token parameter is missing."}"#)
            }
        }

        /// Whether a stored answer may stand in for the request that failed this way.
        var meansServerUnavailable: Bool {
            switch self {
            case .invalidClient400, .invalidClient401, .invalidRequest400: false
            default: true
            }
        }
    }

    static let environment = APIEnvironment(.custom(try! APIBaseURL(URL(string: "http://api.test/api/")!)))!
    static let renewed = #"{"access_token":"new-access","token_type":"Bearer","expires_in":3600,"refresh_token":"alice-refresh-2"}"#

    /// A credentials file holding alice's expired sign-in.
    static func signedIn() async throws -> URL {
        let file = TestFolders.temporary.appendingPathComponent("renewal-\(UUID().uuidString)/credentials.json")
        let now = Date()
        let expired = Credential(accessToken: "old-access", refreshToken: "alice-refresh", issuedAt: now.addingTimeInterval(-7_200), expiresAt: now.addingTimeInterval(-3_600))
        try await FileAPIContext(environment: environment, fileURL: file, holder: .person(account: "alice")).storeSignIn(expired, account: "alice")
        return file
    }

    /// One command's stack for alice, as the app builds it, whose token endpoint answers `token`.
    static func command(_ file: URL, token: StubResponse, retryPolicy: RetryPolicy? = nil) -> (APIClient, StubTransport) {
        let transport = StubTransport(rules: [
            .path(.post, "auth/token", token),
            .path(.get, "watchlist", .status(200, body: #"{"entries":[]}"#)),
        ], sleep: { _ in })
        let context = FileAPIContext(environment: environment, fileURL: file, holder: .person(account: "alice"))
        let stack = APIClientStack(
            context: context, transport: transport, clientCredentials: .testClient, person: "alice",
            retryPolicy: retryPolicy, requestTimeout: .seconds(2), callDeadline: nil
        )
        return (stack.client, transport)
    }

    /// alice's refresh token in the file, or nil when she is signed out.
    static func refreshToken(in file: URL) throws -> String? {
        try FileAPIContext.stored(in: file, for: environment.identity).first { $0.holder == .person(account: "alice") }?.credential.refreshToken
    }

    @Test("every answer that is not a refusal of the grant keeps the sign-in and its refresh token on disk; the request fails with what happened; the next command renews", arguments: Answer.allCases)
    func keepsTheSignIn(answer: Answer) async throws {
        let file = try await Self.signedIn()
        let (client, transport) = Self.command(file, token: answer.response)
        do {
            _ = try await client.send(APIRoute.watchlist)
            Issue.record("the watchlist was read without a renewed token")
        } catch {
            #expect(error.meansServerUnavailable == answer.meansServerUnavailable, "\(error)")
            if case .authenticationFailed = error { Issue.record("treated as signed out: \(error)") }
            #expect(SignedOut.sentence(in: error.description) == nil, "\(error)")
        }
        #expect(transport.receivedRequests.map(\.url.path) == ["/api/auth/token"], "one refresh, no fallback, no request without a token")
        #expect(try Self.refreshToken(in: file) == "alice-refresh")
        #expect(try FileAPIContext.people(in: file, for: Self.environment.identity).accounts == ["alice"])

        let (next, _) = Self.command(file, token: .status(200, body: Self.renewed))
        _ = try await next.send(APIRoute.watchlist)
        #expect(try Self.refreshToken(in: file) == "alice-refresh-2")
    }

    @Test("with the retry policy every command has, a renewal that fails is asked once: the request it was for is not sent again to ask again", arguments: Answer.allCases)
    func oneTokenRequest(answer: Answer) async throws {
        let file = try await Self.signedIn()
        let policy = RetryPolicy(maximumDelay: .milliseconds(1), random: { _ in 0 })
        let (client, transport) = Self.command(file, token: answer.response, retryPolicy: policy)
        await #expect(throws: NetworkError.self) { try await client.send(APIRoute.watchlist) }
        #expect(transport.receivedRequests.map(\.url.path) == ["/api/auth/token"], "\(transport.receivedRequests.map(\.url.path))")
        #expect(try Self.refreshToken(in: file) == "alice-refresh")
    }

    @Test("a 400 invalid_grant, the refresh token refused, ends the sign-in: the command says signed out, and the file no longer holds it")
    func invalidGrantSignsOut() async throws {
        let file = try await Self.signedIn()
        let refusal = StubResponse.status(400, body: #"{"error":"invalid_grant","error_description":"The refresh token is unknown, expired, already used or issued to another client."}"#)
        let (client, _) = Self.command(file, token: refusal)
        await #expect {
            try await client.send(APIRoute.watchlist)
        } throws: { error in
            guard case .authenticationFailed = error as? NetworkError else { return false }
            return SignedOut.sentence(in: "\(error)") == "signed out of \(Self.environment.identity) as alice: the session has ended; run 'marquee login' to sign in again"
        }
        #expect(try Self.refreshToken(in: file) == nil)
        #expect(try FileAPIContext.people(in: file, for: Self.environment.identity).accounts.isEmpty)
    }
}
