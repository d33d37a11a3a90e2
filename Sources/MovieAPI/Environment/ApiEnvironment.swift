import Foundation

/// Which movie API the client talks to.
public enum ApiEnvironment: Sendable, Hashable {
    /// The original static site the tutorial published.
    case production
    /// A `MovieServer` running inside this process, at the URL it bound to.
    case embedded(URL)
    /// Any other server with the same contract.
    case custom(URL)

    /// The API root every route is joined to.
    public var baseURL: URL {
        switch self {
        case .production: Self.productionURL
        case let .embedded(url), let .custom(url): url
        }
    }

    public static let productionURL = URL(string: "http://danielsaidi.com/demo_Alamofire_AlamofireObjectMapper_Realm/api/")!
}

extension ApiEnvironment: CustomStringConvertible {
    public var description: String {
        switch self {
        case .production: "production (\(baseURL.absoluteString))"
        case let .embedded(url): "embedded server (\(url.absoluteString))"
        case let .custom(url): url.absoluteString
        }
    }
}
