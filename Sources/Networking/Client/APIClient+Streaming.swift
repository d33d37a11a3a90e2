import Foundation
import HTTPTypes

extension APIClient {
    /// Opens `route` as a stream on a ``StreamingTransport``: the request is adapted by the
    /// interceptors (the credential is put on it), and a `401` is handed to them once, as
    /// `send(_:)` does, so that an expired credential is renewed before the stream is opened again.
    public func openStream(_ route: some Route) async throws(NetworkError) -> StreamedResponse {
        guard let streaming = transport as? any StreamingTransport else {
            throw .invalidRoute("this transport cannot hold a stream open")
        }
        let original = try APIRequest(endpoint: route.endpoint, base: base, defaultTimeout: defaultTimeout)
        var attempt = 0
        while true {
            attempt += 1
            var request = original
            for interceptor in interceptors { request = try await interceptor.adapt(request) }
            request.sentAt = .now
            let response = try await streaming.openStream(request)
            guard response.status == .unauthorized, attempt == 1 else { return response }
            let head = APIResponse(status: response.status, headerFields: response.headerFields, body: Data())
            switch await retryDecision(request, response: head, error: .status(code: 401, excerpt: ""), attempt: attempt) {
            case .retry, .retryAfter, .retryAfterCapped:
                continue
            case let .fail(error):
                throw error
            case .doNotRetry:
                return response
            }
        }
    }
}
