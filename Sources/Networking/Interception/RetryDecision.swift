/// What an ``Interceptor`` wants done with a failed attempt.
public enum RetryDecision: Sendable, Hashable {
    /// Let the failure stand (unless a later interceptor wants a retry).
    case doNotRetry
    /// Send the request again now.
    case retry
    /// Send the request again after waiting this long.
    case retryAfter(Duration)
    /// Do not retry, and fail with this error instead of the attempt's own.
    case fail(NetworkError)
}
