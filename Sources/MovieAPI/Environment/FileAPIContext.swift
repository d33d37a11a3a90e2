import FileLocking
import Foundation
import Logging
import Movies

/// An ``APIContext`` that keeps the credential in a file shared by every run and every process,
/// so the next run reuses a token that is still valid.
///
/// The file holds one credential per API. Renewals and writes hold the file's lock and start
/// from what the file holds at that moment (see ``CredentialsFile``). A file that cannot be read
/// counts as signed out, with a warning; it is never overwritten, so nothing in it is lost.
public actor FileAPIContext: APIContext {
    public nonisolated let environment: APIEnvironment
    public nonisolated let fileURL: URL
    private let file: CredentialsFile
    private let logger: Logger
    private var cached: Credential??
    private var warned = false

    public init(environment: APIEnvironment, fileURL: URL, logger: Logger = Logger(label: "MovieAPI.credentials")) {
        self.environment = environment
        self.fileURL = fileURL
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

    /// Holds the lock, reads the file, lets `change` edit it, and writes it back when it changed.
    private func locked(_ change: (inout CredentialsFile.Contents) async -> Void) async throws(CredentialsFileError) {
        try file.createFolder()
        do {
            try await file.lock.withLock {
                var contents = try file.read()
                let before = contents.credentials
                await change(&contents)
                if contents.credentials != before { try file.write(contents) }
            }
        } catch let error as CredentialsFileError {
            throw error
        } catch let error as FileLock.Failure {
            throw .cannotLock(error)
        } catch {
            throw .cannotWrite(path: fileURL.path, reason: "\(error)")
        }
    }

    private var key: String { environment.identity.key }

    private func warnOnce(_ error: any Error) {
        guard !warned else { return }
        warned = true
        logger.warning("\(error); signing in without the stored credential")
    }
}
