import Foundation
import MovieServer

/// The client id and secret the app authorizes itself with: `MARQUEE_CLIENT_ID` and
/// `MARQUEE_CLIENT_SECRET` from the environment, else the development pair.
enum ClientSecrets {
    static func fromEnvironment(_ variables: [String: String] = ProcessInfo.processInfo.environment) -> ClientCredentials {
        let id = variables["MARQUEE_CLIENT_ID"].flatMap { $0.isEmpty ? nil : $0 }
        let secret = variables["MARQUEE_CLIENT_SECRET"].flatMap { $0.isEmpty ? nil : $0 }
        return ClientCredentials(id: id ?? ClientCredentials.development.id, secret: secret ?? ClientCredentials.development.secret)
    }
}
