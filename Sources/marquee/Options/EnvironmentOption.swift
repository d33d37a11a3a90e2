import ArgumentParser
import Foundation
import Networking

/// The `--env` value as the user typed it, before the composition root resolves it.
enum EnvironmentOption: ExpressibleByArgument, Equatable {
    /// Start the bundled API server in this process and use it.
    case embedded
    /// The original static site.
    case production
    /// Any server with the same contract.
    case url(URL)
    /// No network at all: a stub transport with the reference bodies, playing a scenario.
    case stub(StubScenario)

    init?(argument: String) {
        switch argument.lowercased() {
        case "embedded": self = .embedded
        case "production": self = .production
        case let text where text.hasPrefix("stub:"):
            guard let scenario = StubScenario.allCases.first(where: { "stub:\($0.rawValue)".lowercased() == text }) else { return nil }
            self = .stub(scenario)
        default:
            guard let url = URL(string: argument), let scheme = url.scheme?.lowercased(),
                  scheme == "http" || scheme == "https", let host = url.host, !host.isEmpty
            else { return nil }
            self = .url(url)
        }
    }

    static var defaultCompletionKind: CompletionKind {
        .list(["embedded", "production"] + StubScenario.allCases.map { "stub:\($0.rawValue)" })
    }

    var defaultValueDescription: String {
        switch self {
        case .embedded: "embedded"
        case .production: "production"
        case let .url(url): url.absoluteString
        case let .stub(scenario): "stub:\(scenario.rawValue)"
        }
    }
}
