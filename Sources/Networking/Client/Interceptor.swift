/// A hook into every request an ``APIClient`` sends: change it before it goes out, and decide
/// whether to try again after it failed.
///
/// Interceptors compose in the order the client was given them. `adapt` runs in that order
/// before every attempt (so a retried request is adapted again, with a fresh credential).
/// After a failure the client asks each interceptor's `retry` in that order and follows the
/// first answer that is not ``RetryDecision/doNotRetry``.
public protocol Interceptor: Sendable {
    /// Returns the request to send, for example with an authorization header added.
    func adapt(_ request: APIRequest) async throws(NetworkError) -> APIRequest

    /// Decides whether a failed attempt is tried again.
    ///
    /// - Parameters:
    ///   - request: the request as it was sent (after adaptation).
    ///   - response: the response, when the failure is a status the route does not accept.
    ///   - error: what went wrong.
    ///   - attempt: 1 for the first attempt, 2 for the first retry, and so on.
    func retry(_ request: APIRequest, response: APIResponse?, error: NetworkError, attempt: Int) async -> RetryDecision
}

extension Interceptor {
    public func adapt(_ request: APIRequest) async throws(NetworkError) -> APIRequest { request }

    public func retry(_ request: APIRequest, response: APIResponse?, error: NetworkError, attempt: Int) async -> RetryDecision {
        .doNotRetry
    }
}

/// What an ``Interceptor`` wants done with a failed attempt.
public enum RetryDecision: Sendable, Hashable {
    /// Let the failure stand (unless a later interceptor wants a retry).
    case doNotRetry
    /// Send the request again now.
    case retry
    /// Send the request again after waiting this long.
    case retryAfter(Duration)
    /// Send the request again after `wait`, shorter than the `requested` wait the server asked for
    /// (a `Retry-After` past the policy's cap); the request log says so.
    case retryAfterCapped(wait: Duration, requested: Duration)
    /// Do not retry, and fail with this error instead of the attempt's own.
    case fail(NetworkError)
}
