import Foundation
import MovieAPI
import Networking
import ReferenceAPI

/// The environment a command runs against, once resolved: an API somewhere, or a stub.
enum AppEnvironment: Equatable {
    /// The bundled server, already listening at this URL.
    case embedded(URL)
    case production
    case custom(URL)
    /// No network: a stub transport playing a scenario with the reference bodies.
    case stub(StubScenario)

    /// The API environment the clients are built for.
    var api: ApiEnvironment {
        switch self {
        case let .embedded(url): .embedded(url)
        case .production: .production
        case let .custom(url): .custom(url)
        case .stub: .custom(ReferenceStubs.baseURL)
        }
    }

    /// Whether the credential is worth keeping for the next run (a real server that outlives this process).
    var keepsCredential: Bool {
        switch self {
        case .production, .custom: true
        case .embedded, .stub: false
        }
    }
}
