import Movies
import Networking

/// What every request of the movie API shares: the environment it goes to and the credential
/// it carries.
///
/// The app keeps one context for its whole run, so every service that talks to the API agrees
/// on where it is and who it is.
public protocol ApiContext: CredentialStore where Credential == Movies.Credential {
    var environment: ApiEnvironment { get }
}

/// An ``ApiContext`` that keeps the credential for as long as the process runs.
public actor InMemoryApiContext: ApiContext {
    public nonisolated let environment: ApiEnvironment
    private var stored: Credential?

    public init(environment: ApiEnvironment, credential: Credential? = nil) {
        self.environment = environment
        self.stored = credential
    }

    public func credential() -> Credential? { stored }

    public func setCredential(_ credential: Credential?) {
        stored = credential
    }
}
