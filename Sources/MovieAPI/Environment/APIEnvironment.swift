import Foundation

/// Which API a client talks to, and where it is reached this run.
public struct APIEnvironment: Sendable, Hashable, CustomStringConvertible {
    public let identity: APIIdentity
    /// The API root every route is joined to.
    public let baseURL: URL

    /// The API `identity`, reached at `baseURL` (the embedded server's or the stub's address).
    public init(_ identity: APIIdentity, at baseURL: URL) {
        self.identity = identity
        self.baseURL = baseURL
    }

    /// An API that always lives at the same address (production, a custom server).
    public init?(_ identity: APIIdentity) {
        guard let baseURL = identity.fixedBaseURL else { return nil }
        self.init(identity, at: baseURL)
    }

    public static let production = APIEnvironment(.production, at: APIIdentity.productionBaseURL.url)

    public var description: String {
        switch identity {
        case .embedded: "the embedded API (\(baseURL.absoluteString))"
        case .production, .stub, .custom: identity.description
        }
    }
}
