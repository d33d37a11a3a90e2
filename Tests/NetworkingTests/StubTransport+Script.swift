import Foundation
import HTTPTypes
import Networking

extension StubTransport {
    /// A stub that answers the n-th request with the n-th result, then repeats the last one.
    static func scripted(_ results: [Result<APIResponse, NetworkError>]) -> StubTransport {
        StubTransport(rules: [.any(.sequence(results.map { result in
            switch result {
            case let .success(response): .response(response)
            case let .failure(error): .failure(error)
            }
        }))])
    }
}

extension APIResponse {
    static func json(_ text: String, status: HTTPResponse.Status = .ok) -> APIResponse {
        APIResponse(status: status, headerFields: [.contentType: "application/json"], body: Data(text.utf8))
    }
}
