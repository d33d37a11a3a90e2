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

/// A transport that answers with a closure and records what it was sent.
final class ClosureTransport: Transport {
    private let received = NIOLockedValueBox<[APIRequest]>([])
    private let answer: @Sendable (APIRequest) async -> Result<APIResponse, NetworkError>

    init(_ answer: @escaping @Sendable (APIRequest) async -> Result<APIResponse, NetworkError>) {
        self.answer = answer
    }

    var requests: [APIRequest] { received.withLockedValue { $0 } }

    func send(_ request: APIRequest) async throws(NetworkError) -> APIResponse {
        received.withLockedValue { $0.append(request) }
        return try await answer(request).get()
    }

    /// 200 for requests that carry one of `accepted` tokens, 401 for the others.
    static func accepting(_ accepted: @escaping @Sendable (String?) -> Bool) -> ClosureTransport {
        ClosureTransport { request in
            let token = request.headerFields[.authorization].map { String($0.dropFirst("Bearer ".count)) }
            return .success(accepted(token) ? .json("[]") : APIResponse(status: .unauthorized, body: Data(#"{"error":"invalid_token"}"#.utf8)))
        }
    }
}
