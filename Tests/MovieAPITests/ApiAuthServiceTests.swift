import Foundation
import MovieAPI
import Movies
import Networking
import ReferenceAPI
import Testing

/// `ApiAuthService` on the stub transport: what it sends, how it reads the answer, and that the
/// token route is sent once, never retried.
@Suite("ApiAuthService")
struct ApiAuthServiceTests {
    let issuedAt = Date(timeIntervalSince1970: 1_800_000_000)

    func service(_ transport: StubTransport, secret: String = "s3cret&=") -> ApiAuthService {
        ApiAuthService(client: APIClient(baseURL: ReferenceStubs.baseURL, transport: transport), clientCredentials: ApiClientCredentials(id: "app id", secret: secret), now: { issuedAt })
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
        #expect(!"\(TokenGrant.refreshToken("r-123"))".contains("r-123"))
        let credential = Credential(accessToken: "tok-abc", refreshToken: "ref-def", issuedAt: issuedAt, expiresAt: issuedAt)
        for text in ["\(credential)", String(reflecting: credential), "\(Mirror(reflecting: credential).children.map(\.value))"] {
            #expect(!text.contains("tok-abc") && !text.contains("ref-def"))
        }
    }
}
