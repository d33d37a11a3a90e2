import Crypto
import Foundation
import MarqueeTestSupport
import MovieServer
import NIOConcurrencyHelpers
import ReferenceAPI
import ServerTestSupport
import Testing

/// Access tokens a test signs itself, as the server would, to try what the server accepts.
enum AccessTokens {
    static func accessToken(from client: ServerClient) async throws -> String {
        let answer = try await client.get(
            "/api/auth/token", method: .POST, headers: TokenForms.form, body: TokenForms.clientGrant
        )
        return try #require(answer.json?["access_token"] as? String)
    }
}
