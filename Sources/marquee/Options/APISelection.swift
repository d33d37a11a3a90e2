import MovieAPI
import Networking

/// The API a `--env` value names, and for the stub which scenario it plays.
struct APISelection: Equatable {
    let identity: APIIdentity
    /// The scenario, when the API is the stub.
    let stubScenario: StubScenario?

    static let embedded = APISelection(identity: .embedded, stubScenario: nil)

    /// `embedded`, `production`, `stub:<scenario>`, or an http(s) base URL. The error never
    /// repeats a password typed in the URL.
    init(parsing text: String) throws(Invalid) {
        switch text.lowercased() {
        case "embedded":
            self = .embedded
        case "production":
            self.init(identity: .production, stubScenario: nil)
        case let lowered where lowered.hasPrefix("stub:"):
            guard let scenario = StubScenario.allCases.first(where: { "stub:\($0.rawValue)".lowercased() == lowered }) else {
                throw Invalid(reason: "unknown stub scenario '\(text.dropFirst(5))'; use \(Self.stubNames.joined(separator: ", "))")
            }
            self.init(identity: .stub, stubScenario: scenario)
        default:
            guard text.contains("://") else {
                throw Invalid(reason: "'\(text)' is not embedded, production, stub:<scenario> or an http(s) URL")
            }
            do {
                self.init(identity: APIIdentity(baseURL: try APIBaseURL(text)), stubScenario: nil)
            } catch {
                throw Invalid(reason: error.reason)
            }
        }
    }

    init(identity: APIIdentity, stubScenario: StubScenario?) {
        self.identity = identity
        self.stubScenario = stubScenario
    }

    /// Why a `--env` value names no API.
    struct Invalid: Error, CustomStringConvertible {
        let reason: String
        var description: String { reason }
    }

    static let stubNames = StubScenario.allCases.map { "stub:\($0.rawValue)" }
}
