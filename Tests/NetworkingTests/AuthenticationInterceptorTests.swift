import Foundation
import HTTPTypes
import Networking
import Synchronization
import Testing

/// The rules of `AuthenticationInterceptor`, on in-memory transports: no sockets.
@Suite("AuthenticationInterceptor")
struct AuthenticationInterceptorTests {
    let baseURL = URL(string: "http://api.test/api/")!
    let movies = Endpoint(path: ["movies", "1"])

    func client(_ transport: any Transport, _ interceptor: some Interceptor) -> APIClient {
        APIClient(baseURL: baseURL, transport: transport, interceptors: [interceptor])
    }

    @Test("every request carries the current credential")
    func adaptsRequests() async throws {
        let transport = StubTransport.accepting { $0 == "good" }
        let authenticator = FakeAuthenticator()
        let interceptor = AuthenticationInterceptor(authenticator: authenticator, store: MemoryCredentialStore("good"))
        _ = try await client(transport, interceptor).send(movies)
        #expect(transport.requests.map { $0.headerFields[.authorization] } == ["Bearer good"])
        #expect(authenticator.refreshCount == 0 && authenticator.authorizeCount == 0)
    }

    @Test("an expired credential is refreshed before the request is sent")
    func refreshesBeforeSending() async throws {
        let transport = StubTransport.accepting { $0 == "refreshed-1" }
        let authenticator = FakeAuthenticator()
        let store = MemoryCredentialStore("expired")
        _ = try await client(transport, AuthenticationInterceptor(authenticator: authenticator, store: store)).send(movies)
        #expect(transport.requests.count == 1)
        #expect(authenticator.refreshCount == 1)
        #expect(await store.credential() == "refreshed-1")
    }

    @Test("up front: no credential at all means authorizing before the first request")
    func authorizesWhenSignedOut() async throws {
        let transport = StubTransport.accepting { $0 == "authorized-1" }
        let authenticator = FakeAuthenticator()
        let interceptor = AuthenticationInterceptor(authenticator: authenticator, store: MemoryCredentialStore(nil), presentation: .upFront)
        _ = try await client(transport, interceptor).send(movies)
        #expect(transport.requests.map { $0.headerFields[.authorization] } == ["Bearer authorized-1"])
        #expect(authenticator.authorizeCount == 1)
        #expect(authenticator.refreshCount == 0)
    }

    @Test("when challenged: without a credential the request goes bare, and a server that never asks is never sent a grant")
    func sendsBareUntilAsked() async throws {
        let transport = StubTransport.accepting { _ in true }
        let authenticator = FakeAuthenticator()
        let client = client(transport, AuthenticationInterceptor(authenticator: authenticator, store: MemoryCredentialStore(nil)))
        for _ in 1...3 { _ = try await client.send(movies) }
        #expect(transport.requests.map { $0.headerFields[.authorization] } == [nil, nil, nil])
        #expect(authenticator.authorizeCount == 0 && authenticator.refreshCount == 0)
    }

    @Test("when challenged: a 401 to the bare request authorizes once and retries; later requests carry the credential up front")
    func authorizesWhenChallenged() async throws {
        let transport = StubTransport.accepting { $0 == "authorized-1" }
        let authenticator = FakeAuthenticator()
        let store = MemoryCredentialStore(nil)
        let client = client(transport, AuthenticationInterceptor(authenticator: authenticator, store: store))
        _ = try await client.send(movies)
        _ = try await client.send(movies)
        #expect(transport.requests.map { $0.headerFields[.authorization] } == [nil, "Bearer authorized-1", "Bearer authorized-1"])
        #expect(authenticator.authorizeCount == 1)
        #expect(await store.credential() == "authorized-1")
    }

    @Test("a credential another process stored while this one waited for the lock is used as it is, without a refresh")
    func adoptsACredentialRenewedElsewhere() async throws {
        let transport = StubTransport.accepting { $0 == "renewed-elsewhere" }
        let authenticator = FakeAuthenticator()
        let store = SharedFileLikeStore(cached: "expired", onDisk: "renewed-elsewhere")
        _ = try await client(transport, AuthenticationInterceptor(authenticator: authenticator, store: store)).send(movies)
        #expect(transport.requests.map { $0.headerFields[.authorization] } == ["Bearer renewed-elsewhere"])
        #expect(authenticator.refreshCount == 0 && authenticator.authorizeCount == 0)
    }

    @Test("once the server refuses to authorize the client, later renewals fail at once without asking again")
    func latchesARefusal() async throws {
        let authenticator = FakeAuthenticator(
            refresh: { _ in .failure(AuthenticationFailures.grantRefused) },
            authorize: { _ in .failure(.status(code: 401, excerpt: "invalid_client")) }
        )
        let client = client(StubTransport.accepting { _ in false }, AuthenticationInterceptor(authenticator: authenticator, store: MemoryCredentialStore("expired")))
        for _ in 1...3 {
            await #expect(throws: NetworkError.self) { try await client.send(movies) }
        }
        #expect(authenticator.refreshCount == 1 && authenticator.authorizeCount == 1)
    }

    @Test("a request refused with an older credential than the current one is retried without a refresh")
    func retriesStaleRequestsWithoutRefreshing() async throws {
        let store = MemoryCredentialStore("old")
        let transport = StubTransport.answering { request in
            if request.headerFields[.authorization] == "Bearer old" {
                await store.setCredential("new")
                return .status(401)
            }
            return .status(200, body: "[]")
        }
        let authenticator = FakeAuthenticator()
        _ = try await client(transport, AuthenticationInterceptor(authenticator: authenticator, store: store)).send(movies)
        #expect(transport.requests.map { $0.headerFields[.authorization] } == ["Bearer old", "Bearer new"])
        #expect(authenticator.refreshCount == 0 && authenticator.authorizeCount == 0)
    }

    @Test("a 401 with the current credential renews it and retries once")
    func renewsOnRefusal() async throws {
        let transport = StubTransport.accepting { $0 == "refreshed-1" }
        let authenticator = FakeAuthenticator()
        _ = try await client(transport, AuthenticationInterceptor(authenticator: authenticator, store: MemoryCredentialStore("revoked"))).send(movies)
        #expect(transport.requests.map { $0.headerFields[.authorization] } == ["Bearer revoked", "Bearer refreshed-1"])
        #expect(authenticator.refreshCount == 1)
    }

    @Test("a refresh refused for good (authenticationFailed) falls back to authorizing")
    func fallsBackToAuthorizing() async throws {
        let transport = StubTransport.accepting { $0 == "authorized-1" }
        let authenticator = FakeAuthenticator(refresh: { _ in .failure(AuthenticationFailures.grantRefused) })
        let store = MemoryCredentialStore("expired")
        _ = try await client(transport, AuthenticationInterceptor(authenticator: authenticator, store: store)).send(movies)
        #expect(authenticator.refreshCount == 1)
        #expect(authenticator.authorizeCount == 1)
        #expect(await store.credential() == "authorized-1")
    }

    @Test("when refresh and authorization are both refused, the request fails with authenticationFailed and the credential is cleared")
    func clearsOnRefusal() async throws {
        let transport = StubTransport.accepting { _ in true }
        let authenticator = FakeAuthenticator(
            refresh: { _ in .failure(AuthenticationFailures.grantRefused) },
            authorize: { _ in .failure(.status(code: 401, excerpt: "invalid_client")) }
        )
        let store = MemoryCredentialStore("expired")
        await #expect {
            try await client(transport, AuthenticationInterceptor(authenticator: authenticator, store: store)).send(movies)
        } throws: { error in
            guard case .authenticationFailed = error as? NetworkError else { return false }
            return true
        }
        #expect(transport.requests.isEmpty)
        #expect(await store.credential() == nil)
    }

    @Test("when the token server cannot be reached, the network error stands and the credential is kept")
    func keepsCredentialWhenOffline() async throws {
        let offline = NetworkError.cannotConnect(host: "api.test", port: 80, reason: "connection refused")
        let authenticator = FakeAuthenticator(refresh: { _ in .failure(offline) }, authorize: { _ in .failure(offline) })
        let store = MemoryCredentialStore("expired")
        await #expect(throws: offline) {
            try await client(StubTransport.accepting { _ in true }, AuthenticationInterceptor(authenticator: authenticator, store: store)).send(movies)
        }
        #expect(await store.credential() == "expired")
    }

    @Test("a renewed credential that is refused again fails instead of renewing again")
    func retriesOnlyOnce() async throws {
        let transport = StubTransport.accepting { _ in false }
        let authenticator = FakeAuthenticator()
        await #expect {
            try await client(transport, AuthenticationInterceptor(authenticator: authenticator, store: MemoryCredentialStore("a"))).send(movies)
        } throws: { error in
            guard case .authenticationFailed = error as? NetworkError else { return false }
            return true
        }
        #expect(transport.requests.count == 2)
        #expect(authenticator.refreshCount == 1)
    }

    @Test("the refresh-loop guard trips after the allowed renewals within the window")
    func guardsAgainstRenewalLoops() async throws {
        let transport = StubTransport.accepting { _ in false }
        let authenticator = FakeAuthenticator()
        let fixedNow = ContinuousClock.now
        let interceptor = AuthenticationInterceptor(
            authenticator: authenticator, store: MemoryCredentialStore("a"),
            limit: .init(maximumRenewals: 3, window: .seconds(60)), now: { fixedNow }
        )
        let client = client(transport, interceptor)
        for _ in 1...3 {
            await #expect(throws: NetworkError.self) { try await client.send(movies) }
        }
        await #expect {
            try await client.send(movies)
        } throws: { error in
            guard case let .authenticationFailed(reason) = error as? NetworkError else { return false }
            return reason.contains("renewing in a loop")
        }
        #expect(authenticator.refreshCount == 3)
    }

    @Test("renewing a credential because it expired is no loop: a credential that expires before each of 10 requests is renewed 10 times within the window")
    func expiryIsNoLoop() async throws {
        let transport = StubTransport.accepting { $0?.hasPrefix("refreshed") == true }
        let authenticator = FakeAuthenticator()
        let fixedNow = ContinuousClock.now
        let store = MemoryCredentialStore("expired")
        let client = client(transport, AuthenticationInterceptor(
            authenticator: authenticator, store: store, limit: .init(maximumRenewals: 3, window: .seconds(60)), now: { fixedNow }
        ))
        for round in 1...10 {
            _ = try await client.send(movies)
            await store.setCredential("expired-\(round)")
        }
        #expect(authenticator.refreshCount == 10)
    }

    @Test("an endpoint that needs no authentication is neither adapted nor retried on a 401")
    func leavesTokenRoutesAlone() async throws {
        let transport = StubTransport(rules: [.any(.status(401))])
        let authenticator = FakeAuthenticator()
        let token = Endpoint(method: .post, path: ["auth", "token"], requiresAuthentication: false)
        await #expect(throws: NetworkError.status(code: 401, excerpt: "")) {
            try await client(transport, AuthenticationInterceptor(authenticator: authenticator, store: MemoryCredentialStore("expired"))).send(token)
        }
        #expect(transport.requests.count == 1)
        #expect(transport.requests.first?.headerFields[.authorization] == nil)
        #expect(authenticator.refreshCount == 0 && authenticator.authorizeCount == 0)
    }

    @Test("1,000 concurrent requests with an expired credential share one refresh")
    func sharesOneRefresh() async throws {
        let transport = StubTransport.accepting { $0 == "refreshed-1" }
        let authenticator = FakeAuthenticator()
        let client = client(transport, AuthenticationInterceptor(authenticator: authenticator, store: MemoryCredentialStore("expired")))
        let successes = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<1000 { group.addTask { _ = try await client.send(movies); return 1 } }
            return try await group.reduce(0, +)
        }
        #expect(successes == 1000)
        #expect(authenticator.refreshCount == 1)
        #expect(transport.requests.count == 1000)
    }
}

/// Reading `WWW-Authenticate` challenges (RFC 9110, section 11.6.1).
@Suite("Authentication challenges")
struct AuthenticationChallengeTests {
    @Test("the schemes of a header value, with quoted commas and parameters skipped", arguments: [
        (#"Bearer realm="movies", error="invalid_token""#, ["bearer"]),
        (#"Basic realm="a, b", Bearer"#, ["basic", "bearer"]),
        (#"Negotiate abc==, bearer error = "x""#, ["negotiate", "bearer"]),
        (#"Basic realm="say \"Bearer\"""#, ["basic"]),
        ("", []),
    ])
    func readsSchemes(value: String, schemes: [String]) {
        #expect(AuthenticationChallenge.schemes(in: value) == schemes)
    }

    @Test("only a 401 that challenges for the scheme is a challenge")
    func recognisesChallenges() {
        let bearer = APIResponse(status: .unauthorized, headerFields: [.wwwAuthenticate: #"Bearer realm="x""#])
        let basic = APIResponse(status: .unauthorized, headerFields: [.wwwAuthenticate: #"Basic realm="x""#])
        let forbidden = APIResponse(status: .forbidden, headerFields: [.wwwAuthenticate: "Bearer"])
        #expect(AuthenticationChallenge.isChallenge(bearer, for: "Bearer"))
        #expect(!AuthenticationChallenge.isChallenge(basic, for: "Bearer"))
        #expect(!AuthenticationChallenge.isChallenge(forbidden, for: "Bearer"))
        #expect(!AuthenticationChallenge.isChallenge(APIResponse(status: .unauthorized), for: "Bearer"))
    }
}
