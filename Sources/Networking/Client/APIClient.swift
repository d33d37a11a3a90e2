import Foundation
import Logging

/// Sends ``Route``s to one API: builds the request, lets the interceptors adapt it, sends it
/// through a ``Transport``, validates the status, retries when an interceptor asks, and decodes.
///
/// Every failure is a ``NetworkError``. Cancelling the calling task cancels the request under way
/// and stops any further attempt. With a ``deadline``, the whole call (every attempt and every
/// wait between them) ends within it: each attempt's timeout is cut to the time left, and a
/// retry that could not start in time is not made.
///
/// Every attempt is logged at `info` as one line (method, URL, status, bytes, duration, attempt
/// number, outcome: `ExchangeRecord`), and at `debug` as a `curl` command with its credentials
/// replaced by placeholders (``CurlCommand``), under the metadata key ``curlMetadataKey``.
public struct APIClient: Sendable {
    public let baseURL: URL
    public let transport: any Transport
    public let interceptors: [any Interceptor]
    /// How long one attempt may take when its endpoint does not say.
    public let defaultTimeout: Duration
    /// A hard stop for retries, whatever the interceptors decide.
    public let maximumAttempts: Int
    /// How long one call may take across all its attempts; `nil` for no limit beyond the attempts'.
    public let deadline: Duration?
    /// The shell variables the debug `curl` commands put in place of credentials.
    public let curlPlaceholders: CurlCommand.Placeholders
    private let sleep: @Sendable (Duration) async throws -> Void
    private let logger: Logger
    let base: URLBase

    public init(
        baseURL: URL,
        transport: any Transport,
        interceptors: [any Interceptor] = [],
        defaultTimeout: Duration = .seconds(30),
        maximumAttempts: Int = 8,
        deadline: Duration? = nil,
        curlPlaceholders: CurlCommand.Placeholders = CurlCommand.Placeholders(),
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) },
        logger: Logger = .disabled
    ) {
        self.baseURL = baseURL
        self.base = URLBase(baseURL)
        self.transport = transport
        self.interceptors = interceptors
        self.defaultTimeout = defaultTimeout
        self.maximumAttempts = maximumAttempts
        self.deadline = deadline
        self.curlPlaceholders = curlPlaceholders
        self.sleep = sleep
        self.logger = logger
    }

    /// Sends `route` and returns the response once its status is acceptable.
    public func send(_ route: some Route) async throws(NetworkError) -> APIResponse {
        let endpoint = route.endpoint
        let original = try APIRequest(endpoint: endpoint, base: base, defaultTimeout: defaultTimeout)
        let ends = deadline.map { ContinuousClock.now + $0 }
        var attempt = 0
        var failures: [NetworkError] = []
        while true {
            attempt += 1
            guard !Task.isCancelled else { throw .cancelled }
            var request = original
            request.failures = failures
            if let ends {
                let left = ends - .now
                guard left > .zero else { throw failures.last ?? .timedOut(after: deadline ?? .zero) }
                request.timeout = min(request.timeout, left)
            }
            var response: APIResponse?
            do throws(NetworkError) {
                for interceptor in interceptors {
                    request = try await interceptor.adapt(request)
                }
                logger.debug("\(CurlCommand.make(for: request, placeholders: curlPlaceholders))", metadata: [Self.curlMetadataKey: "true"])
                request.sentAt = .now
                let received = try await transport.send(request)
                response = received
                try ResponseValidation.validate(received, for: endpoint)
                log(request, response: received, attempt: attempt, outcome: ExchangeRecord.outcome(of: received, to: request))
                return received
            } catch {
                guard error != .cancelled, !Task.isCancelled else {
                    log(request, response: response, attempt: attempt, outcome: "cancelled")
                    throw .cancelled
                }
                log(request, response: response, attempt: attempt, outcome: "failed: \(error)")
                if let ends, let deadline, ContinuousClock.now >= ends, case .timedOut = error { throw .timedOut(after: deadline) }
                guard attempt < maximumAttempts else { throw error }
                failures.append(error)
                let decision = await retryDecision(request, response: response, error: error, attempt: attempt)
                if let retrying = ExchangeRecord.retrying(after: decision) {
                    logger.info("\(request.method.rawValue) \(ExchangeRecord.shown(request.url)): \(retrying) (attempt \(attempt + 1))")
                }
                switch decision {
                case .doNotRetry:
                    throw error
                case let .fail(replacement):
                    throw replacement
                case .retry:
                    continue
                case let .retryAfter(delay), let .retryAfterCapped(delay, _):
                    if let ends, ContinuousClock.now + delay >= ends { throw error }
                    do { try await sleep(delay) } catch { throw .cancelled }
                }
            }
        }
    }

    /// The metadata key of the debug event that carries an attempt as a `curl` command.
    public static let curlMetadataKey = "curl"

    /// One line of the request log for an attempt that was sent (or failed before it could be).
    private func log(_ request: APIRequest, response: APIResponse?, attempt: Int, outcome: String) {
        logger.info("\(ExchangeRecord(request: request, response: response, attempt: attempt, outcome: outcome).line)")
    }

    /// Sends `route` with `If-None-Match: entityTag` (plainly when `entityTag` is `nil`), and
    /// accepts a `304 Not Modified` as an answer.
    ///
    /// A `304` whose `ETag` is not (weakly) the tag that was sent confirms some other
    /// representation, not the one held (RFC 9111, 4.3.4): it is not passed on, and the route is
    /// asked again without a tag.
    public func send(_ route: some Route, ifNoneMatch entityTag: String?) async throws(NetworkError) -> ConditionalResponse {
        guard let entityTag else { return .modified(try await send(route)) }
        var endpoint = route.endpoint
        endpoint.headerFields[.ifNoneMatch] = entityTag
        let response = try await send(endpoint)
        guard response.status == .notModified else { return .modified(response) }
        if let confirmed = response.headerFields[.eTag], !EntityTag.weaklyMatch(confirmed, entityTag) {
            logger.info("\(endpoint.method.rawValue) \(endpoint.pathSegments.joined(separator: "/")): the 304 confirms \(CacheHeaders.wellFormedTag(confirmed) ?? "another tag"), not the one sent; asking again without a tag")
            return .modified(try await send(route))
        }
        return .notModified(response)
    }

    /// Sends `request` and decodes its answer's body as the type the request names.
    public func send<Response>(_ request: Request<Response>) async throws(NetworkError) -> Response {
        try request.decode(try await send(request.endpoint).body)
    }

    /// Sends `route` and returns its body as text, without surrounding whitespace.
    public func text(from route: some Route) async throws(NetworkError) -> String {
        try await send(route).text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func retryDecision(_ request: APIRequest, response: APIResponse?, error: NetworkError, attempt: Int) async -> RetryDecision {
        for interceptor in interceptors {
            let decision = await interceptor.retry(request, response: response, error: error, attempt: attempt)
            if decision != .doNotRetry { return decision }
        }
        return .doNotRetry
    }
}

/// Checks a response against what its endpoint accepts.
enum ResponseValidation {
    static func validate(_ response: APIResponse, for endpoint: Endpoint) throws(NetworkError) {
        let revalidated = response.status == .notModified && endpoint.headerFields[.ifNoneMatch] != nil
        guard revalidated || endpoint.acceptableStatusCodes.contains(response.status.code) else {
            throw .status(of: response)
        }
    }
}
