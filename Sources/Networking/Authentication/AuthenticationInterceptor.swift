import NIOConcurrencyHelpers

/// Puts the credential on every request that needs one, obtains it when the server asks for it,
/// renews it before it expires, and recovers from a refused credential with one shared renewal.
///
/// - When to present a credential (``Presentation``): either on every request from the start, or
///   only once the server has asked for one with a 401 challenge. A stored credential is always
///   presented: having one means the server asked before.
/// - Before sending: a stored credential that is expired or nearly expired is renewed first.
/// - After a 401: if the request carried an older credential than the current one, it is retried
///   at once. Otherwise every request refused meanwhile waits for the same single renewal and is
///   retried once with its result, or fails with its error; so does a request that was on the
///   wire while the last renewal ran, even when its 401 is read after that renewal ended.
/// - Renewing runs inside ``CredentialStore/modifyCredential(_:)``: a credential that another
///   process stored meanwhile is used as it is; else ``Authenticator/refresh(_:)`` is tried first.
///   Only a refresh refused for good (``NetworkError/authenticationFailed(_:)``: the server refused
///   the grant itself, or there is nothing to refresh with) falls back to
///   ``Authenticator/authorize()``; when the server refuses that too, the stored credential is
///   cleared and requests fail with ``NetworkError/authenticationFailed(_:)``. Any other failure
///   of a refresh or an authorization (no connection, a time-out, a `5xx`, a `408` or `429`, an
///   answer that cannot be read, another `4xx`) keeps the stored credential, and the request
///   fails with that error: the next run tries again, and so does the next request unless the
///   server refused the client (another `4xx`), which is then remembered as below.
/// - Once the server has refused to issue a credential at all, or refused a refresh as this
///   client makes it, later renewals fail with that refusal at once: asking again with the same
///   client credentials cannot succeed.
/// - More than ``RenewalLimit/maximumRenewals`` renewals within ``RenewalLimit/window`` of a
///   credential the server refused before its time was up fail instead of looping. A credential
///   renewed because it expired is never counted (a short token lifetime is no loop), and neither
///   is a renewal that failed without a refusal (the server unreachable or unable to answer).
/// - Endpoints that do not require authentication (a token endpoint) are left alone.
public actor AuthenticationInterceptor<Auth: Authenticator>: Interceptor {
    /// When requests start carrying a credential.
    public enum Presentation: Sendable, Hashable {
        /// From the first request: the API is known to require one.
        case upFront
        /// Once the server has answered 401 (or a credential is stored): an API that never asks
        /// is never sent a token request.
        case whenChallenged
    }

    /// A guard against renewing in a loop when the server keeps refusing new credentials.
    public struct RenewalLimit: Sendable {
        public var maximumRenewals: Int
        public var window: Duration

        public init(maximumRenewals: Int = 5, window: Duration = .seconds(60)) {
            self.maximumRenewals = maximumRenewals
            self.window = window
        }
    }

    /// What ``adapt(_:)`` reads without entering the actor.
    private struct Flags {
        var renewing = false
        var challenged = false
    }

    private let authenticator: Auth
    private let store: any CredentialStore<Auth.Credential>
    private let presentation: Presentation
    private let limit: RenewalLimit
    private let now: @Sendable () -> ContinuousClock.Instant
    private var renewal: Task<Result<Auth.Credential, NetworkError>, Never>? {
        didSet { flags.withLockedValue { $0.renewing = renewal != nil } }
    }
    private let flags = NIOLockedValueBox(Flags())
    /// Counts finished renewals, so a caller can tell whether one finished while it waited.
    private var generation = 0
    private var renewalTimes: [ContinuousClock.Instant] = []
    /// The server's refusal to authorize this client, once it has happened.
    private var refusal: NetworkError?
    /// When the last renewal ended, and how: the answer for every request sent before then.
    private var lastRenewal: (endedAt: ContinuousClock.Instant, result: Result<Auth.Credential, NetworkError>)?

    public init<Store: CredentialStore>(
        authenticator: Auth,
        store: Store,
        presentation: Presentation = .whenChallenged,
        limit: RenewalLimit = RenewalLimit(),
        now: @escaping @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now }
    ) where Store.Credential == Auth.Credential {
        self.authenticator = authenticator
        self.store = store
        self.presentation = presentation
        self.limit = limit
        self.now = now
    }

    /// Adds the credential, if there is one to add. The common cases (a fresh credential, or none
    /// needed yet, and no renewal under way) run without entering the actor; anything else goes
    /// through it, so renewals stay single-flight. A renewal that starts just after the fast path
    /// looked only means the request carries the previous credential (or none), which the
    /// refusal path already handles.
    public nonisolated func adapt(_ request: APIRequest) async throws(NetworkError) -> APIRequest {
        guard request.endpoint.requiresAuthentication else { return request }
        var adapted = request
        let flags = self.flags.withLockedValue { $0 }
        if !flags.renewing {
            let stored = await store.credential()
            if let stored, !authenticator.needsRenewal(stored) {
                authenticator.apply(stored, to: &adapted)
                return adapted
            }
            if stored == nil, presentation == .whenChallenged, !flags.challenged { return request }
        }
        if let credential = try await usableCredential() {
            authenticator.apply(credential, to: &adapted)
        }
        return adapted
    }

    public func retry(_ request: APIRequest, response: APIResponse?, error: NetworkError, attempt: Int) async -> RetryDecision {
        guard request.endpoint.requiresAuthentication else { return .doNotRetry }
        // A request that was never sent because the renewal failed fails with it: sent again,
        // it would ask the token endpoint again, and a refresh token the server rotated before
        // its answer was lost would then be a reuse that ends the sign-in.
        if request.sentAt == nil, renewal == nil, case let .failure(failed)? = lastRenewal?.result, failed == error {
            return .fail(error)
        }
        guard authenticator.isAuthenticationFailure(request, response: response, error: error) else { return .doNotRetry }
        flags.withLockedValue { $0.challenged = true }
        if let code = error.statusCode, request.failures.contains(where: { $0.statusCode == code }) {
            return .fail(.authenticationFailed("the server refused the credential again after it was renewed"))
        }
        let seenGeneration = generation
        let current = await store.credential()
        if let current, !authenticator.isRequest(request, authenticatedWith: current), !authenticator.needsRenewal(current) {
            return .retry
        }
        if renewal == nil, let last = lastRenewal, let sentAt = request.sentAt, sentAt <= last.endedAt {
            switch last.result {
            case .success: return .retry
            case let .failure(error): return .fail(error)
            }
        }
        do {
            _ = try await renewedCredential(since: seenGeneration, replacing: current)
            return .retry
        } catch {
            return .fail(error)
        }
    }

    /// The credential to send, or `nil` when the server has not asked for one.
    private func usableCredential() async throws(NetworkError) -> Auth.Credential? {
        if let renewal { return try await renewal.value.get() }
        let seenGeneration = generation
        let stored = await store.credential()
        if let stored, !authenticator.needsRenewal(stored) { return stored }
        if stored == nil, presentation == .whenChallenged, !flags.withLockedValue({ $0.challenged }) { return nil }
        return try await renewedCredential(since: seenGeneration, replacing: stored)
    }

    /// A credential renewed after `seenGeneration`: the one of a renewal under way, one that
    /// finished since, or a new renewal's, which replaces `stale`.
    private func renewedCredential(since seenGeneration: Int, replacing stale: Auth.Credential?) async throws(NetworkError) -> Auth.Credential {
        if let renewal { return try await renewal.value.get() }
        if generation != seenGeneration {
            let current = await store.credential()
            if let renewal { return try await renewal.value.get() }
            if let current, !authenticator.needsRenewal(current) { return current }
        }
        let task = Task { await self.renew(replacing: stale) }
        renewal = task
        let result = await task.value
        if renewal == task {
            renewal = nil
            lastRenewal = (ContinuousClock.now, result)
        }
        return try result.get()
    }

    private func renew(replacing stale: Auth.Credential?) async -> Result<Auth.Credential, NetworkError> {
        defer { generation += 1 }
        if let refusal { return .failure(refusal) }
        let start = now()
        renewalTimes.removeAll { start - $0 >= limit.window }
        // A credential renewed because its time is up is no loop, however short its lifetime:
        // only a renewal of one the server refused while it should have held (or of none) counts.
        var expired = false
        if let stale { expired = authenticator.needsRenewal(stale) }
        if !expired {
            guard renewalTimes.count < limit.maximumRenewals else {
                return .failure(.authenticationFailed(
                    "the credential was renewed \(renewalTimes.count) times within \(limit.window) and the server still refuses it; stopping instead of renewing in a loop"
                ))
            }
            renewalTimes.append(start)
        }
        let authenticator = self.authenticator
        let result: Result<Auth.Credential, Refusable> = await store.modifyCredential { stored in
            if let latest = stored, latest != stale, !authenticator.needsRenewal(latest) {
                return .success(latest)
            }
            if let current = stored {
                do throws(NetworkError) {
                    let renewed = try await authenticator.refresh(current)
                    stored = renewed
                    return .success(renewed)
                } catch .authenticationFailed {
                    // Refused for good: only a fresh authorization can replace it.
                } catch {
                    // The credential stays; a client the server refuses is refused again, though.
                    return .failure(Refusable(error: error, isRefusal: Self.refusesTheClient(error)))
                }
            }
            do throws(NetworkError) {
                let authorized = try await authenticator.authorize()
                stored = authorized
                return .success(authorized)
            } catch {
                guard Self.isRefusal(error) else { return .failure(Refusable(error: error, isRefusal: false)) }
                stored = nil
                return .failure(Refusable(error: .authenticationFailed("the server refused to issue a credential (\(error))"), isRefusal: true))
            }
        }
        return result.mapError { failure in
            if failure.isRefusal {
                refusal = failure.error
            } else {
                // A renewal that could not reach the server, or get an answer, is no loop to stop.
                renewalTimes.removeAll { $0 == start }
            }
            return failure.error
        }
    }

    /// A renewal's error, and whether it was the server refusing to authorize the client: then
    /// later renewals of this run fail with it at once.
    private struct Refusable: Error {
        let error: NetworkError
        let isRefusal: Bool
    }

    /// Whether an authorization failed because the server will not issue a credential.
    private static func isRefusal(_ error: NetworkError) -> Bool {
        switch error {
        case .authenticationFailed, .cannotDecode: true
        default: refusesTheClient(error)
        }
    }

    /// A `4xx` other than `408` and `429`: the server refuses the request as this client makes
    /// it (`invalid_client`, `invalid_request`), and asking again the same way cannot succeed.
    private static func refusesTheClient(_ error: NetworkError) -> Bool {
        guard case let .status(code, _) = error else { return false }
        return (400..<500).contains(code) && code != 408 && code != 429
    }
}
