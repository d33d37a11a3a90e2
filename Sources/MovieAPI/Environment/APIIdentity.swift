import Foundation

/// Names one movie API, whatever address it is reached at this run: the key under which its
/// movies are stored and its credential is kept, so that nothing of one API ever answers for
/// another.
public enum APIIdentity: Sendable, Hashable, CustomStringConvertible {
    /// The server bundled with the app, started in the process on whatever port is free.
    case embedded
    /// The original static site.
    case production
    /// The stub transport with the reference bodies; every scenario is this one API.
    case stub
    /// Any other server of the contract, by its base URL.
    case custom(APIBaseURL)

    /// The identity of the API at `baseURL`: ``production`` for the original site's address,
    /// else ``custom(_:)``.
    public init(baseURL: APIBaseURL) {
        self = baseURL == Self.productionBaseURL ? .production : .custom(baseURL)
    }

    /// The text that keys the API's data: `embedded`, `stub`, or the normalized base URL.
    public var key: String {
        switch self {
        case .embedded: "embedded"
        case .stub: "stub"
        case .production: Self.productionBaseURL.description
        case let .custom(baseURL): baseURL.description
        }
    }

    /// Where the API always lives; `nil` for the embedded server and the stub, whose address is
    /// known only once they run.
    public var fixedBaseURL: URL? {
        switch self {
        case .embedded, .stub: nil
        case .production: Self.productionBaseURL.url
        case let .custom(baseURL): baseURL.url
        }
    }

    public var description: String {
        switch self {
        case .embedded: "the embedded API"
        case .stub: "the stub API"
        case .production: "production (\(Self.productionBaseURL))"
        case let .custom(baseURL): baseURL.description
        }
    }

    /// The original site's address (a literal that is valid by construction).
    public static let productionBaseURL = try! APIBaseURL("http://danielsaidi.com/demo_Alamofire_AlamofireObjectMapper_Realm/api/")
}
