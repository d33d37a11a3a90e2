import Foundation
import HTTPTypes
import Networking
import NIOConcurrencyHelpers

/// A transport for client tests: answers each request with the next scripted result and keeps
/// every request it was given.
final class RecordingTransport: Transport {
    private let state: NIOLockedValueBox<(script: [Result<APIResponse, NetworkError>], requests: [APIRequest])>

    init(_ script: [Result<APIResponse, NetworkError>]) {
        state = NIOLockedValueBox((script, []))
    }

    var requests: [APIRequest] { state.withLockedValue { $0.requests } }

    func send(_ request: APIRequest) async throws(NetworkError) -> APIResponse {
        let next = state.withLockedValue { state -> Result<APIResponse, NetworkError> in
            state.requests.append(request)
            return state.script.isEmpty ? .failure(.connectionLost("script exhausted")) : state.script.removeFirst()
        }
        return try next.get()
    }
}

extension APIResponse {
    static func json(_ text: String, status: HTTPResponse.Status = .ok) -> APIResponse {
        APIResponse(status: status, headerFields: [.contentType: "application/json"], body: Data(text.utf8))
    }
}
