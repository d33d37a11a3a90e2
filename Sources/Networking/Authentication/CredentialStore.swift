/// Where the current credential of an API lives: in memory, in a file, in a keychain.
///
/// ``AuthenticationInterceptor`` reads it before every request and renews it through
/// ``modifyCredential(_:)``, so all clients that share a store share a credential.
public protocol CredentialStore<Credential>: Sendable {
    associatedtype Credential: Sendable & Equatable

    func credential() async -> Credential?

    /// Replaces the stored credential; `nil` signs out.
    func setCredential(_ credential: Credential?) async

    /// Runs `body` on the credential stored at this moment and stores what `body` leaves, as
    /// one step: a store shared between processes (a file) holds a lock and reads the latest
    /// credential first, so a process that waited sees what another one just stored.
    func modifyCredential<Outcome: Sendable>(_ body: @Sendable (inout Credential?) async -> Outcome) async -> Outcome
}

extension CredentialStore {
    /// Reads, runs `body`, and writes back when the credential changed. Enough for a store that
    /// only one process uses: within a process, ``AuthenticationInterceptor`` renews one at a time.
    public func modifyCredential<Outcome: Sendable>(_ body: @Sendable (inout Credential?) async -> Outcome) async -> Outcome {
        let before = await credential()
        var credential = before
        let outcome = await body(&credential)
        if credential != before { await setCredential(credential) }
        return outcome
    }
}
