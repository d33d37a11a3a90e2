import Foundation
import HTTPTypes
import Networking
import NIOConcurrencyHelpers

/// A credential store in memory, with a count of writes.
actor MemoryCredentialStore: CredentialStore {
    private var stored: String?
    private(set) var writes = 0

    init(_ credential: String?) {
        stored = credential
    }

    func credential() -> String? { stored }

    func setCredential(_ credential: String?) {
        stored = credential
        writes += 1
    }
}

/// A store shared with another process, as a credentials file is: ``credential()`` answers from
/// what this process read before, ``modifyCredential(_:)`` from what is on disk now.
actor SharedFileLikeStore: CredentialStore {
    private var cached: String?
    private var onDisk: String?

    init(cached: String?, onDisk: String?) {
        self.cached = cached
        self.onDisk = onDisk
    }

    func credential() -> String? { cached }

    func setCredential(_ credential: String?) {
        cached = credential
        onDisk = credential
    }

    func modifyCredential<Outcome: Sendable>(_ body: @Sendable (inout String?) async -> Outcome) async -> Outcome {
        var credential = onDisk
        let outcome = await body(&credential)
        setCredential(credential)
        return outcome
    }
}

/// An authenticator whose credentials are plain strings: those starting with `expired` need
/// renewal. Its grants are scripted and counted.
final class FakeAuthenticator: Authenticator {
    typealias Credential = String

    private let refreshes = NIOLockedValueBox(0)
    private let authorizations = NIOLockedValueBox(0)
    private let refreshResult: @Sendable (Int) -> Result<String, NetworkError>
    private let authorizeResult: @Sendable (Int) -> Result<String, NetworkError>

    init(
        refresh: @escaping @Sendable (Int) -> Result<String, NetworkError> = { .success("refreshed-\($0)") },
        authorize: @escaping @Sendable (Int) -> Result<String, NetworkError> = { .success("authorized-\($0)") }
    ) {
        self.refreshResult = refresh
        self.authorizeResult = authorize
    }

    var refreshCount: Int { refreshes.withLockedValue { $0 } }
    var authorizeCount: Int { authorizations.withLockedValue { $0 } }

    func apply(_ credential: String, to request: inout APIRequest) {
        request.headerFields[.authorization] = "Bearer \(credential)"
    }

    func needsRenewal(_ credential: String) -> Bool { credential.hasPrefix("expired") }

    func isRequest(_ request: APIRequest, authenticatedWith credential: String) -> Bool {
        request.headerFields[.authorization] == "Bearer \(credential)"
    }

    func authorize() async throws(NetworkError) -> String {
        let count = authorizations.withLockedValue { $0 += 1; return $0 }
        return try authorizeResult(count).get()
    }

    func refresh(_ credential: String) async throws(NetworkError) -> String {
        let count = refreshes.withLockedValue { $0 += 1; return $0 }
        return try refreshResult(count).get()
    }
}

extension StubTransport {
    /// A stub answering 200 to requests that carry an accepted bearer token and 401 to the others.
    static func accepting(_ accepted: @escaping @Sendable (String?) -> Bool) -> StubTransport {
        answering { request in
            let token = request.headerFields[.authorization].map { String($0.dropFirst("Bearer ".count)) }
            return accepted(token) ? .status(200, body: "[]") : .status(401, body: #"{"error":"invalid_token"}"#)
        }
    }

    /// A stub answering every request with `answer`.
    static func answering(_ answer: @escaping @Sendable (APIRequest) async -> StubResponse) -> StubTransport {
        StubTransport(rules: [.any(.closure(answer))])
    }

    /// The requests received so far, as the interceptor tests read them.
    var requests: [RecordedRequest] { receivedRequests }
}

/// The failures an authenticator reports, as the tests expect them.
enum AuthenticationFailures {
    /// How an authenticator says the server refused the credential itself (OAuth's `invalid_grant`).
    static let grantRefused = NetworkError.authenticationFailed("the server refused the refresh_token grant (invalid_grant)")
}
