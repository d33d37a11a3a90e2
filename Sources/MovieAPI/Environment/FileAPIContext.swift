import FileLocking
import Foundation
import Logging
import Movies

/// An ``APIContext`` that keeps the credential in a file shared by every run and every process,
/// so the next run reuses a token that is still valid.
///
/// The file holds one credential per API and holder (``CredentialHolder``: a client id, or a
/// person's account). Renewals and writes hold the file's lock and start
/// from what the file holds at that moment (see ``CredentialsFile``). A file that cannot be read
/// counts as signed out, with a warning; it is never overwritten, so nothing in it is lost.
public actor FileAPIContext: APIContext {
    public nonisolated let environment: APIEnvironment
    public nonisolated let fileURL: URL
    public nonisolated let holder: CredentialHolder
    private nonisolated let file: CredentialsFile
    private let logger: Logger
    private var cached: Credential??
    private var warned = false

    public init(environment: APIEnvironment, fileURL: URL, holder: CredentialHolder, logger: Logger = Logger(label: "MovieAPI.credentials")) {
        self.environment = environment
        self.fileURL = fileURL
        self.holder = holder
        self.file = CredentialsFile(url: fileURL)
        self.logger = logger
    }

    public func credential() -> Credential? {
        if let cached { return cached }
        if let tightened = file.keepPrivate() { logger.warning("\(tightened)") }
        let loaded: Credential?
        do {
            loaded = try file.read().credentials[key]
        } catch {
            warnOnce(error)
            loaded = nil
        }
        cached = .some(loaded)
        return loaded
    }

    /// Stores `credential`, or removes the stored one (`nil`); failures are logged. Use
    /// ``store(_:)`` to hear of them.
    public func setCredential(_ credential: Credential?) async {
        do {
            try await store(credential)
        } catch {
            cached = .some(credential)
            warnOnce(error)
        }
    }

    /// Stores `credential`, or removes the stored one (`nil`), keeping every other API's entry.
    public func store(_ credential: Credential?) async throws(CredentialsFileError) {
        try await locked { contents in
            contents.credentials[self.key] = credential
        }
        cached = .some(credential)
    }

    public func modifyCredential<Outcome: Sendable>(_ body: @Sendable (inout Credential?) async -> Outcome) async -> Outcome {
        var outcome: Outcome?
        do {
            try await locked { contents in
                var credential = contents.credentials[self.key]
                outcome = await body(&credential)
                self.cached = .some(credential)
                contents.credentials[self.key] = credential
            }
        } catch {
            warnOnce(error)
        }
        if let outcome { return outcome }
        var credential = cached ?? nil
        let unlockedOutcome = await body(&credential)
        cached = .some(credential)
        return unlockedOutcome
    }

    /// The default account of the API, when one is set.
    public nonisolated func defaultAccount() throws(CredentialsFileError) -> String? {
        try file.read().defaultAccounts?[environment.identity.key]
    }

    /// Makes `account` the API's default (nil: none), keeping every other API's.
    public func setDefaultAccount(_ account: String?) async throws(CredentialsFileError) {
        try await locked { contents in
            var defaults = contents.defaultAccounts ?? [:]
            defaults[self.environment.identity.key] = account
            contents.defaultAccounts = defaults.isEmpty ? nil : defaults
        }
    }

    /// Stores a person's `credential` for `account` and, when the API has no default account yet,
    /// makes it the default, in one step under the lock.
    public func storeSignIn(_ credential: Credential, account: String) async throws(CredentialsFileError) {
        let key = CredentialHolder.person(account: account).key(for: environment.identity)
        try await locked { contents in
            contents.credentials[key] = credential
            var defaults = contents.defaultAccounts ?? [:]
            if defaults[self.environment.identity.key] == nil { defaults[self.environment.identity.key] = account }
            contents.defaultAccounts = defaults
        }
        if holder == .person(account: account) { cached = .some(credential) }
    }

    /// Fails, saying what to fix, unless a sign-in could be stored now: the folder made, the lock
    /// taken, the file read, and a file made beside it. Checked before a person is shown a code to
    /// approve, so that no approval is lost to a file that cannot be written.
    public func checkSignInCanBeStored() async throws(CredentialsFileError) {
        try await locked { _ in }
        try file.checkFolderWritable()
    }

    /// Holds the lock, reads the file, lets `change` edit it, and writes it back when it changed.
    private func locked(_ change: (inout CredentialsFile.Contents) async -> Void) async throws(CredentialsFileError) {
        try file.createFolder()
        do {
            try await file.lock.withLock {
                var contents = try file.read()
                let before = (contents.credentials, contents.defaultAccounts)
                await change(&contents)
                if contents.credentials != before.0 || contents.defaultAccounts != before.1 { try file.write(contents) }
            }
        } catch let error as CredentialsFileError {
            throw error
        } catch let error as FileLock.Failure {
            throw .cannotLock(error)
        } catch {
            throw .cannotWrite(path: fileURL.path, reason: "\(error)")
        }
    }

    private var key: String { holder.key(for: environment.identity) }

    /// The accounts signed in to the API `identity` in the file at `fileURL`, and its default
    /// account, in one read.
    public static func people(in fileURL: URL, for identity: APIIdentity) throws(CredentialsFileError) -> (accounts: Set<String>, defaultAccount: String?) {
        let contents = try CredentialsFile(url: fileURL).read()
        let accounts = contents.credentials.keys.compactMap { key -> String? in
            if case let .person(account) = CredentialHolder(key: key, for: identity) { return account }
            return nil
        }
        return (Set(accounts), contents.defaultAccounts?[identity.key])
    }

    /// Every credential the file at `fileURL` keeps for the API `identity`, by holder.
    public static func stored(in fileURL: URL, for identity: APIIdentity) throws(CredentialsFileError) -> [(holder: CredentialHolder, credential: Credential)] {
        try CredentialsFile(url: fileURL).read().credentials.compactMap { key, credential in
            CredentialHolder(key: key, for: identity).map { ($0, credential) }
        }.sorted { $0.holder.description < $1.holder.description }
    }

    private func warnOnce(_ error: any Error) {
        guard !warned else { return }
        warned = true
        logger.warning("\(error); signing in without the stored credential")
    }
}
