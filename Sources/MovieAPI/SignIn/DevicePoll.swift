import Foundation
import MovieContract
import Networking

/// What one poll of the token endpoint told a device waiting for a person (RFC 8628 §3.5).
enum DevicePoll: Sendable {
    case tokens(APIToken)
    case pending
    case slowDown
    case denied
    case expired
    /// Another OAuth error (`invalid_grant`, `invalid_client`…), with the server's words.
    case refused(code: String, description: String)

    init(body: Data) throws(NetworkError) {
        if let token = try? JSONDecoder().decode(APIToken.self, from: body) {
            self = .tokens(token)
            return
        }
        guard let error = try? JSONDecoder().decode(ErrorBody.self, from: body) else {
            throw .cannotDecode(path: "$", reason: "the token endpoint answered neither tokens nor an OAuth error")
        }
        switch error.error {
        case "authorization_pending": self = .pending
        case "slow_down": self = .slowDown
        case "access_denied": self = .denied
        case "expired_token": self = .expired
        default: self = .refused(code: error.error, description: error.errorDescription.isEmpty ? error.error : error.errorDescription)
        }
    }
}
