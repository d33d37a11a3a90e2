import Foundation
import HTTPTypes
import NIOConcurrencyHelpers

/// A ``Transport`` that never touches the network: it answers from rules (a route or a method
/// and path pattern → a response), plays a ``StubScenario`` on top of them, and records every
/// request it receives.
///
/// Time is deterministic: the only waiting is a rule's delay or a scenario's timeout, through
/// an injectable sleep that a test can make instant.
public final class StubTransport: Transport {
    /// One request as the stub received it.
    public struct RecordedRequest: Sendable {
        public let method: HTTPRequest.Method
        public let url: URL
        public let headerFields: HTTPFields
        public let body: Data?
        /// How long the client allowed this attempt.
        public let timeout: Duration
    }

    public let scenario: StubScenario
    private let rules: [StubRule]
    private let fallback: StubResponse
    private let sleep: @Sendable (Duration) async throws -> Void
    private let recordsRequests: Bool
    private let state = NIOLockedValueBox(State())

    private struct State {
        var received: [RecordedRequest] = []
        var sequencePositions: [Int: Int] = [:]
        var refusedOnce = false
    }

    /// - Parameters:
    ///   - scenario: the situation to play.
    ///   - rules: the answers, first match wins.
    ///   - fallback: the answer when no rule matches (a JSON 404 by default).
    ///   - sleep: how delays pass; `Task.sleep` by default, instant in tests.
    ///   - recordsRequests: whether to keep every request; off for long runs such as benchmarks.
    public init(
        scenario: StubScenario = .success,
        rules: [StubRule],
        fallback: StubResponse = .status(404, body: #"{"error":"not_found","error_description":"No stub answers this request."}"#),
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) },
        recordsRequests: Bool = true
    ) {
        self.scenario = scenario
        self.rules = rules
        self.fallback = fallback
        self.sleep = sleep
        self.recordsRequests = recordsRequests
    }

    /// Every request received so far, oldest first.
    public var receivedRequests: [RecordedRequest] { state.withLockedValue { $0.received } }

    public func send(_ request: APIRequest) async throws(NetworkError) -> APIResponse {
        if recordsRequests {
            state.withLockedValue {
                $0.received.append(RecordedRequest(method: request.method, url: request.url, headerFields: request.headerFields, body: request.body, timeout: request.timeout))
            }
        }
        guard !Task.isCancelled else { throw .cancelled }
        switch scenario {
        case .success:
            break
        case .noNetwork:
            let (host, port) = request.hostAndPort
            throw .cannotConnect(host: host, port: port, reason: "connection refused (stub scenario noNetwork)")
        case .timeout:
            try await wait(request.timeout)
            throw .timedOut(after: request.timeout)
        case .invalidPermissions where request.endpoint.requiresAuthentication:
            let refusedBefore = state.withLockedValue { state in
                defer { state.refusedOnce = true }
                return state.refusedOnce
            }
            return refusedBefore ? Self.forbidden : Self.unauthorized
        case .invalidPermissions:
            break
        }
        let index = rules.firstIndex { $0.matches(request) }
        return try await answer(index.map { rules[$0].response } ?? fallback, ruleIndex: index ?? -1, to: request)
    }

    private func answer(_ response: StubResponse, ruleIndex: Int, to request: APIRequest) async throws(NetworkError) -> APIResponse {
        switch response {
        case let .response(response):
            return response
        case let .failure(error):
            throw error
        case let .closure(makeResponse):
            return try await answer(await makeResponse(request), ruleIndex: ruleIndex, to: request)
        case let .sequence(responses):
            guard !responses.isEmpty else { return try await answer(fallback, ruleIndex: ruleIndex, to: request) }
            let position = state.withLockedValue { state in
                defer { state.sequencePositions[ruleIndex, default: 0] += 1 }
                return min(state.sequencePositions[ruleIndex, default: 0], responses.count - 1)
            }
            return try await answer(responses[position], ruleIndex: ruleIndex, to: request)
        case let .delayed(delay, response):
            if delay >= request.timeout {
                try await wait(request.timeout)
                throw .timedOut(after: request.timeout)
            }
            try await wait(delay)
            return try await answer(response, ruleIndex: ruleIndex, to: request)
        }
    }

    private func wait(_ duration: Duration) async throws(NetworkError) {
        do { try await sleep(duration) } catch { throw .cancelled }
    }

    private static let unauthorized = APIResponse(
        status: .unauthorized,
        headerFields: [.contentType: "application/json", .wwwAuthenticate: #"Bearer realm="stub", error="invalid_token""#],
        body: Data(#"{"error":"invalid_token","error_description":"The access token is not valid."}"#.utf8)
    )
    private static let forbidden = APIResponse(
        status: .forbidden,
        headerFields: [.contentType: "application/json"],
        body: Data(#"{"error":"insufficient_scope","error_description":"This client may not read movies."}"#.utf8)
    )
}

/// The situations of the protocol-oriented networking article, played by a ``StubTransport``
/// on top of its rules.
public enum StubScenario: String, Sendable, CaseIterable {
    /// Every request is answered by the rules.
    case success
    /// Requests that need authentication are refused with 401 the first time and 403 after the
    /// client has authorized again; the others (the token endpoint) are answered by the rules.
    case invalidPermissions
    /// Every request waits out its timeout and fails with ``NetworkError/timedOut(after:)``.
    case timeout
    /// Every request fails as if the machine had no network: the connection is refused.
    case noNetwork
}
