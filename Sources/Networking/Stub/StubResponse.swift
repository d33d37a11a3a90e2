import Foundation
import HTTPTypes

/// What a ``StubTransport`` answers to a request that a rule matched.
public indirect enum StubResponse: Sendable {
    /// This response.
    case response(APIResponse)
    /// A failure instead of a response, as a real transport would throw it.
    case failure(NetworkError)
    /// The answer of a closure, for anything the other cases cannot say.
    case closure(@Sendable (APIRequest) async -> StubResponse)
    /// The first response for the first matching request, the second for the second, and so on;
    /// the last one repeats.
    case sequence([StubResponse])
    /// Another answer after a delay; a delay at least as long as the request's timeout fails
    /// with ``NetworkError/timedOut(after:)`` once the timeout has passed.
    case delayed(Duration, StubResponse)

    /// A status code with a body.
    public static func status(_ code: Int, body: String = "", contentType: String = "application/json") -> StubResponse {
        .response(APIResponse(status: .init(code: code), headerFields: [.contentType: contentType], body: Data(body.utf8)))
    }

    /// A 200 with a JSON body.
    public static func json(_ body: Data) -> StubResponse {
        .response(APIResponse(status: .ok, headerFields: [.contentType: "application/json"], body: body))
    }

    /// A 200 whose body claims to be JSON but is cut off.
    public static let malformedJSON = StubResponse.json(Data(#"[{"name":"A","id":1,"ye"#.utf8))

    /// A 200 with the contents of `file`, or a 404 when it cannot be read.
    public static func file(_ file: URL, contentType: String = "application/json") -> StubResponse {
        guard let body = try? Data(contentsOf: file) else {
            return .status(404, body: #"{"error":"not_found","error_description":"no stub fixture at \#(file.lastPathComponent)"}"#)
        }
        return .response(APIResponse(status: .ok, headerFields: [.contentType: contentType], body: body))
    }
}
