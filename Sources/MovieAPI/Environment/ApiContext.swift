/// What every request of the movie API shares: the environment it goes to.
///
/// The app keeps one context for its whole run, so every service that talks to the API agrees
/// on where it is.
public protocol ApiContext: Sendable {
    var environment: ApiEnvironment { get }
}

/// An ``ApiContext`` that lives as long as the process.
public struct InMemoryApiContext: ApiContext {
    public let environment: ApiEnvironment

    public init(environment: ApiEnvironment) {
        self.environment = environment
    }
}
