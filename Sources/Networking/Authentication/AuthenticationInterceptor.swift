import NIOConcurrencyHelpers

/// Puts the current credential on every request that needs one, renews it before it expires,
/// and recovers from a refused credential with one shared renewal.
///
/// - Before sending: a missing, expired or nearly expired credential is renewed first.
/// - After a refusal (a 401): if the request carried an older credential than the current one,
///   it is retried at once. Otherwise every request refused meanwhile waits for the same single
///   renewal and is retried once with its result, or fails with its error.
/// - Renewing tries ``Authenticator/refresh(_:)`` first and falls back to
///   ``Authenticator/authorize()``. When the server refuses both, the stored credential is cleared
///   and requests fail with ``NetworkError/authenticationFailed(_:)``. When the server cannot be
///   reached, the credential is kept and the network error is reported.
/// - More than ``RenewalLimit/maximumRenewals`` renewals within ``RenewalLimit/window`` fail
///   instead of looping.
/// - Endpoints that do not require authentication (a token endpoint) are left alone.
public actor AuthenticationInterceptor<Auth: Authenticator>: Interceptor {
    /// A guard against renewing in a loop when the server keeps refusing new credentials.
    public struct RenewalLimit: Sendable {
        public var maximumRenewals: Int
        public var window: Duration

        public init(maximumRenewals: Int = 5, window: Duration = .seconds(60)) {
            self.maximumRenewals = maximumRenewals
            self.window = window
        }
    }

    private let authenticator: Auth
    private let store: any CredentialStore<Auth.Credential>
    private let limit: RenewalLimit
    private let now: @Sendable () -> ContinuousClock.Instant
    private var renewal: Task<Result<Auth.Credential, NetworkError>, Never>? {
        didSet { renewalUnderWay.withLockedValue { $0 = renewal != nil } }
    }
    /// Whether ``renewal`` is set, readable without entering the actor, for the fast path of ``adapt(_:)``.
    private let renewalUnderWay = NIOLockedValueBox(false)
    /// Counts finished renewals, so a caller can tell whether one finished while it waited.
    private var generation = 0
    private var renewalTimes: [ContinuousClock.Instant] = []

    public init<Store: CredentialStore>(
        authenticator: Auth,
        store: Store,
        limit: RenewalLimit = RenewalLimit(),
        now: @escaping @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now }
    ) where Store.Credential == Auth.Credential {
        self.authenticator = authenticator
        self.store = store
        self.limit = limit
        self.now = now
    }

    /// Adds the credential. The common case (a fresh credential and no renewal under way) runs
    /// without entering the actor; anything else goes through it, so renewals stay single-flight.
    /// A renewal that starts just after the fast path looked only means the request carries the
    /// previous credential, which the refusal path already handles.
    public nonisolated func adapt(_ request: APIRequest) async throws(NetworkError) -> APIRequest {
        guard request.endpoint.requiresAuthentication else { return request }
        var adapted = request
        if !renewalUnderWay.withLockedValue({ $0 }), let credential = await store.credential(), !authenticator.needsRenewal(credential) {
            authenticator.apply(credential, to: &adapted)
            return adapted
        }
        let credential = try await usableCredential()
        authenticator.apply(credential, to: &adapted)
        return adapted
    }

    public func retry(_ request: APIRequest, response: APIResponse?, error: NetworkError, attempt: Int) async -> RetryDecision {
        guard request.endpoint.requiresAuthentication,
              authenticator.isAuthenticationFailure(request, response: response, error: error)
        else { return .doNotRetry }
        if request.failures.contains(where: { authenticator.isAuthenticationFailure(request, response: nil, error: $0) }) {
            return .fail(.authenticationFailed("the server refused the credential again after it was renewed"))
        }
        let seenGeneration = generation
        if let current = await store.credential(), !authenticator.isRequest(request, authenticatedWith: current),
           !authenticator.needsRenewal(current) {
            return .retry
        }
        do {
            _ = try await renewedCredential(since: seenGeneration)
            return .retry
        } catch {
            return .fail(error)
        }
    }

    /// How many renewals have finished, successful or not.
    public var renewalCount: Int { generation }

    private func usableCredential() async throws(NetworkError) -> Auth.Credential {
        if let renewal { return try await renewal.value.get() }
        let seenGeneration = generation
        if let credential = await store.credential(), !authenticator.needsRenewal(credential) {
            return credential
        }
        return try await renewedCredential(since: seenGeneration)
    }

    /// A credential renewed after `seenGeneration`: the one of a renewal under way, one that
    /// finished since, or a new renewal's.
    private func renewedCredential(since seenGeneration: Int) async throws(NetworkError) -> Auth.Credential {
        if let renewal { return try await renewal.value.get() }
        if generation != seenGeneration {
            let current = await store.credential()
            if let renewal { return try await renewal.value.get() }
            if let current, !authenticator.needsRenewal(current) { return current }
        }
        let task = Task { await self.renew() }
        renewal = task
        let result = await task.value
        if renewal == task { renewal = nil }
        return try result.get()
    }

    private func renew() async -> Result<Auth.Credential, NetworkError> {
        defer { generation += 1 }
        let start = now()
        renewalTimes.removeAll { start - $0 >= limit.window }
        guard renewalTimes.count < limit.maximumRenewals else {
            return .failure(.authenticationFailed(
                "the credential was renewed \(renewalTimes.count) times within \(limit.window) and the server still refuses it; stopping instead of renewing in a loop"
            ))
        }
        renewalTimes.append(start)

        if let current = await store.credential() {
            do throws(NetworkError) {
                let renewed = try await authenticator.refresh(current)
                await store.setCredential(renewed)
                return .success(renewed)
            } catch {
                // A refused or failed refresh falls back to a fresh authorization.
            }
        }
        do throws(NetworkError) {
            let authorized = try await authenticator.authorize()
            await store.setCredential(authorized)
            return .success(authorized)
        } catch {
            guard Self.isRefusal(error) else { return .failure(error) }
            await store.setCredential(nil)
            return .failure(.authenticationFailed("the server refused to issue a credential (\(error))"))
        }
    }

    private static func isRefusal(_ error: NetworkError) -> Bool {
        switch error {
        case let .status(code, _): (400..<500).contains(code)
        case .authenticationFailed, .cannotDecode: true
        default: false
        }
    }
}
