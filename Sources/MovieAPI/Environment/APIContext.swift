import Movies
import NIOConcurrencyHelpers
import Networking

/// What every request of the movie API shares: the API it goes to and the credential it carries.
///
/// The app keeps one context for its whole run, so every service that talks to the API agrees
/// on where it is and who it is.
public protocol APIContext: CredentialStore where Credential == Movies.Credential {
    var environment: APIEnvironment { get }
}

/// An ``APIContext`` that keeps the credential for as long as the process runs.
///
/// A lock, not an actor: reading the credential happens before every request, and a lock
/// taken for a copy costs far less than a hop to another executor.
public final class InMemoryAPIContext: APIContext {
    public let environment: APIEnvironment
    private let stored: NIOLockedValueBox<Credential?>

    public init(environment: APIEnvironment, credential: Credential? = nil) {
        self.environment = environment
        self.stored = NIOLockedValueBox(credential)
    }

    public func credential() async -> Credential? { stored.withLockedValue { $0 } }

    public func setCredential(_ credential: Credential?) async {
        stored.withLockedValue { $0 = credential }
    }
}
