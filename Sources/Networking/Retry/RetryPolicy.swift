import Foundation

/// Retries requests that failed for a reason that may pass: a connection that could not be
/// opened or broke, a time-out, or a 408, 429, 500, 502, 503 or 504.
///
/// - Only retry-safe requests are retried (GET, HEAD, PUT, DELETE, OPTIONS, or a route that
///   says so); a POST never is unless its route declares it safe.
/// - At most ``maximumRetries`` retries, after exponential backoff with full jitter: a random
///   delay between zero and `baseDelay × 2^(retry − 1)`, never more than ``maximumDelay``.
/// - A `Retry-After` header (seconds or an HTTP date) sets the delay instead: a date in the past
///   is no wait, and a wait longer than ``maximumDelay`` is cut to it (the request log says so);
///   the call's deadline still bounds the whole. A header in neither form is ignored.
/// - A 401 is not this policy's: place it after the ``AuthenticationInterceptor`` so the
///   authentication decides first, and this policy handles what is left.
///
/// Randomness and the clock are injectable, so tests are exact.
public struct RetryPolicy: Interceptor {
    public var maximumRetries: Int
    public var baseDelay: Duration
    public var maximumDelay: Duration
    public var retryableStatusCodes: Set<Int>
    /// A random number in the given range; the jitter.
    public var random: @Sendable (ClosedRange<Double>) -> Double
    /// Now, to read `Retry-After` dates.
    public var now: @Sendable () -> Date

    public init(
        maximumRetries: Int = 2,
        baseDelay: Duration = .milliseconds(250),
        maximumDelay: Duration = .seconds(10),
        retryableStatusCodes: Set<Int> = [408, 429, 500, 502, 503, 504],
        random: @escaping @Sendable (ClosedRange<Double>) -> Double = { Double.random(in: $0) },
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.maximumRetries = maximumRetries
        self.baseDelay = baseDelay
        self.maximumDelay = maximumDelay
        self.retryableStatusCodes = retryableStatusCodes
        self.random = random
        self.now = now
    }

    public func retry(_ request: APIRequest, response: APIResponse?, error: NetworkError, attempt: Int) async -> RetryDecision {
        guard request.endpoint.isRetrySafe, isTransient(error) else { return .doNotRetry }
        let retriesSoFar = request.failures.filter(isTransient).count
        guard retriesSoFar < maximumRetries else { return .doNotRetry }
        if let header = response?.headerFields[.retryAfter], let wait = RetryAfter.delay(header, now: now()) {
            return wait <= maximumDelay ? .retryAfter(wait) : .retryAfterCapped(wait: maximumDelay, requested: wait)
        }
        return .retryAfter(backoff(retry: retriesSoFar + 1))
    }

    /// Whether `error` may pass if the request is sent again.
    public func isTransient(_ error: NetworkError) -> Bool {
        switch error {
        case .cannotConnect, .timedOut, .connectionLost: true
        case let .status(code, _): retryableStatusCodes.contains(code)
        case .cannotDecode, .bodyTooLarge, .cancelled, .invalidRoute, .authenticationFailed, .redirectRefused: false
        }
    }

    /// Full jitter: uniformly random between zero and the capped exponential delay of this retry.
    func backoff(retry: Int) -> Duration {
        let exponential = (baseDelay / .seconds(1)) * pow(2, Double(max(0, retry - 1)))
        let ceiling = min(exponential, maximumDelay / .seconds(1))
        return .seconds(random(0...ceiling))
    }
}
