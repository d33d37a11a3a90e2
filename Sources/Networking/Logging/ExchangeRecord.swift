import Foundation
import HTTPTypes
import NIOHTTP1

/// One attempt of a call as the request log shows it, in one line:
/// `GET http://127.0.0.1:8080/api/movies/topGrossing/2016 → 200 OK, 1919 bytes, 3.2 ms, attempt 1: fresh body`.
///
/// The URL is shown without any user name or password; no header is shown, so no credential is.
struct ExchangeRecord {
    let method: HTTPRequest.Method
    let url: URL
    let status: HTTPResponse.Status?
    let bytes: Int
    let duration: Duration
    let attempt: Int
    /// What came of it: `fresh body`, `revalidated (…)`, `answered`, `failed: …`, `cancelled`.
    let outcome: String

    init(request: APIRequest, response: APIResponse?, attempt: Int, outcome: String) {
        method = request.method
        url = request.url
        status = response?.status
        bytes = response?.body.count ?? 0
        duration = request.sentAt.map { ContinuousClock.now - $0 } ?? .zero
        self.attempt = attempt
        self.outcome = outcome
    }

    var line: String {
        let answer = status.map { "\(NetworkError.statusLine($0.code)), \(bytes) bytes" } ?? "no response"
        return "\(method.rawValue) \(Self.shown(url)) → \(answer), \(Self.milliseconds(duration)), attempt \(attempt): \(outcome)"
    }

    /// What a successful exchange means for a store: a whole new body, or a `304` confirming the
    /// stored one; `answered` for a method whose answers are not kept.
    static func outcome(of response: APIResponse, to request: APIRequest) -> String {
        if response.status == .notModified { return "revalidated (304: the stored answer is current)" }
        return [.get, .head].contains(request.method) ? "fresh body" : "answered"
    }

    /// `retrying now` or `retrying in 250 ms` when the decision is to retry.
    static func retrying(after decision: RetryDecision) -> String? {
        switch decision {
        case .retry: "retrying now"
        case let .retryAfter(delay): "retrying in \(milliseconds(delay))"
        case let .retryAfterCapped(delay, requested):
            "retrying in \(milliseconds(delay)) (the server's Retry-After asked for \(requested.components.seconds) s; waits are capped at \(milliseconds(delay)))"
        case .doNotRetry, .fail: nil
        }
    }

    static func milliseconds(_ duration: Duration) -> String {
        let value = duration / .milliseconds(1)
        return value < 10 ? String(format: "%.1f ms", value) : "\(Int(value.rounded())) ms"
    }

    static func shown(_ url: URL) -> String {
        guard url.user != nil || url.password != nil, var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            return url.absoluteString
        }
        components.user = nil
        components.password = nil
        return components.string ?? url.absoluteString
    }
}
