import Foundation
import Logging
import Movies

/// An ``ApiContext`` that keeps the credential in the user's config folder, so the next run of
/// the app reuses a token that is still valid.
///
/// The file is `$XDG_CONFIG_HOME/marquee/credentials.json`, else `~/.config/marquee/credentials.json`,
/// with one credential per API base URL. A file that cannot be read counts as signed out, with a
/// warning; it never stops the app.
public actor FileApiContext: ApiContext {
    public nonisolated let environment: ApiEnvironment
    public nonisolated let fileURL: URL
    private let file: CredentialsFile
    private let logger: Logger
    private var cached: Credential??
    private var warnedAboutFile = false

    public init(environment: ApiEnvironment, fileURL: URL = FileApiContext.defaultFileURL(), logger: Logger = Logger(label: "marquee.credentials")) {
        self.environment = environment
        self.fileURL = fileURL
        self.file = CredentialsFile(url: fileURL)
        self.logger = logger
    }

    /// `$XDG_CONFIG_HOME/marquee/credentials.json`, else `~/.config/marquee/credentials.json`.
    public static func defaultFileURL(environment variables: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        let configHome = variables["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
            ?? URL(fileURLWithPath: variables["HOME"] ?? NSHomeDirectory()).appendingPathComponent(".config")
        return configHome.appendingPathComponent("marquee").appendingPathComponent("credentials.json")
    }

    public func credential() -> Credential? {
        if let cached { return cached }
        let loaded = readContents()?.credentials[key]
        cached = .some(loaded)
        return loaded
    }

    public func setCredential(_ credential: Credential?) {
        cached = .some(credential)
        var contents = readContents() ?? CredentialsFile.Contents()
        contents.credentials[key] = credential
        do {
            try file.write(contents)
        } catch {
            logger.warning("cannot save the credentials to \(fileURL.path): \((error as NSError).localizedDescription); the next run will sign in again")
        }
    }

    private var key: String { environment.baseURL.absoluteString }

    private func readContents() -> CredentialsFile.Contents? {
        do {
            return try file.read()
        } catch {
            if !warnedAboutFile {
                logger.warning("ignoring the credentials file \(fileURL.path): \(error); signing in again")
                warnedAboutFile = true
            }
            return nil
        }
    }
}
