import Foundation
import MarqueeTestSupport
import MovieAPI
import Movies
import NIOConcurrencyHelpers
import Networking
import ReferenceAPI
import Testing

/// `APIAuthService` on the stub transport: what it sends, how it reads the answer, and that the
/// token route is sent once, never retried.
@Suite("APIAuthService")
struct APIAuthServiceTests {
    let issuedAt = Date(timeIntervalSince1970: 1_800_000_000)

    func service(_ transport: StubTransport, secret: String = "s3cret&=") -> APIAuthService {
        APIAuthService(client: APIClient(baseURL: ReferenceStubs.baseURL, transport: transport), clientCredentials: APIClientCredentials(id: "app id", secret: secret), now: { issuedAt })
    }

    @Test("authorize posts the client credentials form-encoded and builds the credential from the answer")
    func authorizes() async throws {
        let stub = ReferenceStubs.transport()
        let credential = try await service(stub).authorize()
        #expect(credential == Credential(accessToken: "stub-access-token", refreshToken: "stub-refresh-token", issuedAt: issuedAt, expiresAt: issuedAt.addingTimeInterval(3600)))
        let request = try #require(stub.receivedRequests.first)
        #expect(request.method == .post)
        #expect(request.headerFields[.contentType] == "application/x-www-form-urlencoded")
        #expect(String(decoding: request.body ?? Data(), as: UTF8.self) == "grant_type=client_credentials&client_id=app%20id&client_secret=s3cret%26%3D")
        #expect(request.headerFields[.authorization] == nil)
    }

    @Test("a refused grant is a status error, sent once and never retried")
    func refusedGrant() async throws {
        let stub = StubTransport(rules: [.any(.status(401, body: #"{"error":"invalid_client","error_description":"The client id or secret is not valid."}"#))])
        await #expect(throws: NetworkError.status(code: 401, excerpt: "The client id or secret is not valid.")) {
            try await service(stub).refresh(using: "r")
        }
        #expect(stub.receivedRequests.count == 1)
    }

    @Test("a token answer that is not a bearer token is a decoding error")
    func rejectsOtherTokenTypes() async throws {
        let stub = StubTransport(rules: [.any(.json(Data(#"{"access_token":"a","token_type":"mac","expires_in":60}"#.utf8)))])
        await #expect(throws: NetworkError.cannotDecode(path: "$.token_type", reason: "expected Bearer, found 'mac'")) {
            try await service(stub).authorize()
        }
    }

    @Test("the grant's descriptions never show the secret or the refresh token")
    func redactsGrants() {
        let grant = TokenGrant.clientCredentials(id: "app", secret: "hunter2")
        #expect(!"\(grant)".contains("hunter2") && !String(reflecting: grant).contains("hunter2"))
        #expect(!"\(TokenGrant.refreshToken("r-123", clientID: "app", secret: "s-456"))".contains("r-123"))
        #expect(!"\(TokenGrant.refreshToken("r-123", clientID: "app", secret: "s-456"))".contains("s-456"))
        let credential = Credential(accessToken: "tok-abc", refreshToken: "ref-def", issuedAt: issuedAt, expiresAt: issuedAt)
        for text in ["\(credential)", String(reflecting: credential), "\(Mirror(reflecting: credential).children.map(\.value))"] {
            #expect(!text.contains("tok-abc") && !text.contains("ref-def"))
        }
    }
}

/// The token endpoint's retry rule: a token request is a plain POST and is never retried, whatever
/// the retry policy of the movie routes says.
@Suite("Token requests are never retried")
struct TokenRetryTests {
    @Test("a 500 or a time-out from the token endpoint is one POST", arguments: ["500", "hang"])
    func onePost(failure: String) async throws {
        let tokenAnswer: StubResponse = failure == "500"
            ? .status(500, body: #"{"error":"server_error"}"#)
            : .delayed(.seconds(60), .status(200))
        let transport = StubTransport(rules: [
            .path(.post, "auth/token", tokenAnswer),
            .any(.response(APIResponse(status: .unauthorized, headerFields: [.wwwAuthenticate: "Bearer"]))),
        ], sleep: { _ in })
        let context = InMemoryAPIContext(environment: APIEnvironment(.stub, at: ReferenceStubs.baseURL))
        let stack = APIClientStack(context: context, transport: transport, clientCredentials: .testClient, requestTimeout: .seconds(1), callDeadline: .seconds(30))
        await #expect(throws: NetworkError.self) { try await stack.movieService.movies(.topRated, year: 2016) }
        #expect(transport.receivedRequests.filter { $0.method == .post }.count == 1)
    }

    @Test("a fractional expires_in is a number of seconds; a negative one or Int.max is refused", arguments: [
        ("3600.5", 3600.5), ("0", 0.0), ("-1", nil), ("9223372036854775807", nil), ("1e300", nil), ("\"3600\"", nil),
    ] as [(String, Double?)])
    func boundsExpiresIn(value: String, lifetime: Double?) async throws {
        let issuedAt = Date(timeIntervalSince1970: 1_800_000_000)
        let body = #"{"access_token":"a","token_type":"Bearer","expires_in":\#(value),"refresh_token":"r"}"#
        let transport = StubTransport(rules: [.any(.json(Data(body.utf8)))])
        let service = APIAuthService(client: APIClient(baseURL: ReferenceStubs.baseURL, transport: transport), clientCredentials: .testClient, now: { issuedAt })
        if let lifetime {
            #expect(try await service.authorize().expiresAt == issuedAt.addingTimeInterval(lifetime))
        } else {
            await #expect {
                try await service.authorize()
            } throws: { error in
                guard case let .cannotDecode(path, _) = error as? NetworkError else { return false }
                return path == "$.expires_in"
            }
        }
    }
}

/// Many requests waiting on one renewal while the token endpoint fails: one token request, and
/// every waiting request fails with its error.
@Suite("A failing token endpoint under load", .timeLimit(.minutes(3)))
struct FailingTokenEndpointTests {
    @Test("100 challenged requests share one POST to a token endpoint that answers 503 or times out", arguments: ["503", "timeout"])
    func sharesOneFailure(failure: String) async throws {
        let arrived = NIOLockedValueBox(0)
        let transport = StubTransport(rules: [
            .path(.post, "auth/token", failure == "503" ? .status(503, body: #"{"error":"unavailable"}"#) : .delayed(.seconds(60), .status(200))),
            .any(.closure { _ in
                // The 401s are answered once all 100 requests are on the wire, so all of them are
                // refused around the one renewal (a bounded wait, so a bug cannot hang the run).
                arrived.withLockedValue { $0 += 1 }
                for _ in 0..<20_000 where arrived.withLockedValue({ $0 }) < 100 { try? await Task.sleep(for: .milliseconds(1)) }
                return .response(APIResponse(status: .unauthorized, headerFields: [.wwwAuthenticate: "Bearer"]))
            }),
        ], sleep: { _ in })
        let context = InMemoryAPIContext(environment: APIEnvironment(.stub, at: ReferenceStubs.baseURL))
        let stack = APIClientStack(
            context: context, transport: transport, clientCredentials: .testClient,
            retryPolicy: nil, requestTimeout: .seconds(5), callDeadline: nil
        )
        let errors = await withTaskGroup(of: NetworkError?.self) { group in
            // A hundred different years: identical requests would share one exchange.
            for year in 1900..<2000 {
                group.addTask {
                    do { _ = try await stack.movieService.movies(.topRated, year: year); return nil } catch { return error as? NetworkError }
                }
            }
            return await group.reduce(into: [NetworkError?]()) { $0.append($1) }
        }
        let expected: NetworkError = failure == "503" ? .status(code: 503, excerpt: "unavailable") : .timedOut(after: .seconds(5))
        #expect(errors.count == 100 && errors.allSatisfy { $0 == expected }, "\(Set(errors.map { "\(String(describing: $0))" }))")
        #expect(arrived.withLockedValue { $0 } == 100)
        #expect(transport.receivedRequests.filter { $0.method == .post }.count == 1)
        #expect(await context.credential() == nil)
    }
}
