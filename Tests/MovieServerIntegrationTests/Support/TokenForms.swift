import Foundation
import MovieServer
import Testing

/// The token endpoint's forms as clients post them: the grants, form-encoded.
enum TokenForms {
    static let form = [("Content-Type", "application/x-www-form-urlencoded")]

    static let clientGrant = "grant_type=client_credentials&client_id=marquee-dev&client_secret=marquee-dev-secret"

    static func refreshGrant(_ token: String, client: String = "marquee-dev", secret: String = "marquee-dev-secret") -> String {
        "grant_type=refresh_token&refresh_token=\(token)&client_id=\(client)&client_secret=\(secret)"
    }
}
