import Foundation
import Networking
import Testing

/// A renewal that fails without the server refusing the credential (it cannot be reached, cannot
/// answer now, or answers something else) keeps the stored credential: only a refusal ends it.
@Suite("AuthenticationInterceptor: renewals that fail")
struct RenewalFailureTests {
    let movies = Endpoint(path: ["movies", "1"])

    func client(_ interceptor: some Interceptor) -> APIClient {
        APIClient(baseURL: URL(string: "http://api.test/api/")!, transport: StubTransport.accepting { $0 == "refreshed-2" || $0 == "authorized-1" }, interceptors: [interceptor])
    }

    static let failures: [NetworkError] = [
        .status(code: 503, excerpt: "the database is down"), .status(code: 502, excerpt: ""), .status(code: 500, excerpt: "boom"),
        .status(code: 504, excerpt: ""), .status(code: 429, excerpt: "slow down"), .status(code: 408, excerpt: ""),
        .timedOut(after: .seconds(30)), .cannotConnect(host: "api.test", port: 80, reason: "connection refused"),
        .connectionLost("reset by peer"), .cannotDecode(path: "$", reason: "not JSON"), .bodyTooLarge(limit: 10),
    ]

    @Test("a refresh that fails with anything but a refusal keeps the credential, is not followed by an authorization, and the request fails with its error; the next request renews", arguments: failures)
    func keepsTheCredential(failure: NetworkError) async throws {
        let authenticator = FakeAuthenticator(refresh: { count in count == 1 ? .failure(failure) : .success("refreshed-\(count)") })
        let store = MemoryCredentialStore("expired")
        let client = client(AuthenticationInterceptor(authenticator: authenticator, store: store))
        await #expect(throws: failure) { try await client.send(movies) }
        #expect(await store.credential() == "expired")
        #expect(await store.writes == 0)
        #expect(authenticator.authorizeCount == 0)
        _ = try await client.send(movies)
        #expect(await store.credential() == "refreshed-2")
    }

    @Test("a refresh refused as this client makes it (a 401 or 400 invalid_client) keeps the credential; later renewals of the run fail with it at once", arguments: [400, 401])
    func clientRefusedKeepsTheCredential(code: Int) async throws {
        let refusal = NetworkError.status(code: code, excerpt: "The client id or secret is not valid.")
        let authenticator = FakeAuthenticator(refresh: { _ in .failure(refusal) })
        let store = MemoryCredentialStore("expired")
        let client = client(AuthenticationInterceptor(authenticator: authenticator, store: store))
        for _ in 1...3 {
            await #expect(throws: refusal) { try await client.send(movies) }
        }
        #expect(await store.credential() == "expired")
        #expect(authenticator.refreshCount == 1 && authenticator.authorizeCount == 0)
    }

    @Test("an authorization answered 429 or 408 is no refusal: the credential is kept, and the next renewal asks again", arguments: [429, 408])
    func busyIsNoRefusal(code: Int) async throws {
        let authenticator = FakeAuthenticator(
            refresh: { _ in .failure(AuthenticationFailures.grantRefused) },
            authorize: { count in count == 1 ? .failure(.status(code: code, excerpt: "")) : .success("authorized-\(count - 1)") }
        )
        let store = MemoryCredentialStore("expired")
        let client = client(AuthenticationInterceptor(authenticator: authenticator, store: store))
        await #expect(throws: NetworkError.status(code: code, excerpt: "")) { try await client.send(movies) }
        #expect(await store.credential() == "expired")
        _ = try await client.send(movies)
        #expect(authenticator.authorizeCount == 2)
    }

    @Test("renewals that fail without a refusal do not trip the loop guard: the sixth within the window still asks")
    func failuresAreNoLoop() async throws {
        let fixedNow = ContinuousClock.now
        let authenticator = FakeAuthenticator(refresh: { count in count <= 5 ? .failure(.status(code: 503, excerpt: "")) : .success("refreshed-2") })
        let interceptor = AuthenticationInterceptor(
            authenticator: authenticator, store: MemoryCredentialStore("expired"), limit: .init(maximumRenewals: 3, window: .seconds(60)), now: { fixedNow }
        )
        let client = client(interceptor)
        for _ in 1...5 {
            await #expect(throws: NetworkError.status(code: 503, excerpt: "")) { try await client.send(movies) }
        }
        _ = try await client.send(movies)
        #expect(authenticator.refreshCount == 6)
    }
}
