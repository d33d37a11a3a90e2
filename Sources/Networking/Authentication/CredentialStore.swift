/// Where the current credential of an API lives: in memory, in a file, in a keychain.
///
/// ``AuthenticationInterceptor`` reads it before every request and writes every new credential to it,
/// so all clients that share a store share a credential.
public protocol CredentialStore<Credential>: Sendable {
    associatedtype Credential: Sendable

    func credential() async -> Credential?

    /// Replaces the stored credential; `nil` signs out.
    func setCredential(_ credential: Credential?) async
}
