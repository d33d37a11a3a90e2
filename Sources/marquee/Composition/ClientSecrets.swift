import Foundation
import MovieAPI

/// The client id and secret the app authorizes itself with: `MARQUEE_CLIENT_ID` and
/// `MARQUEE_CLIENT_SECRET` from the environment, else the development pair.
enum ClientSecrets {
    static let development = APIClientCredentials(id: "marquee-dev", secret: "marquee-dev-secret")

    static func fromEnvironment(_ variables: [String: String] = ProcessInfo.processInfo.environment) -> APIClientCredentials {
        let id = variables["MARQUEE_CLIENT_ID"].flatMap { $0.isEmpty ? nil : $0 }
        let secret = variables["MARQUEE_CLIENT_SECRET"].flatMap { $0.isEmpty ? nil : $0 }
        return APIClientCredentials(id: id ?? development.id, secret: secret ?? development.secret)
    }
}
