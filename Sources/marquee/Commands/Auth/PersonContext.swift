import ArgumentParser
import Foundation
import MovieAPI
import Networking

/// What the sign-in commands share: the API (which must keep credentials between runs), its
/// credentials file, and one transport to it, shut down when the command ends.
struct PersonContext {
    let environment: APIEnvironment
    let fileURL: URL
    let clientCredentials: APIClientCredentials
    private let transport: AsyncHTTPClientTransport

    /// Runs `body` with the context of `options`' API, then shuts its transport down.
    static func with<T>(_ options: EnvironmentOption, _ body: (PersonContext) async throws -> T) async throws -> T {
        let environment = try reachable(options)
        let person = PersonContext(environment: environment, fileURL: AppPaths.credentialsFile(), clientCredentials: ClientSecrets.fromEnvironment(), transport: AsyncHTTPClientTransport())
        do {
            let result = try await body(person)
            try? await person.transport.shutdown()
            return result
        } catch {
            try? await person.transport.shutdown()
            throw error
        }
    }

    /// The API `options` names, when it outlives this run (a server, production).
    private static func reachable(_ options: EnvironmentOption) throws -> APIEnvironment {
        let identity = try options.selection.identity
        guard let environment = APIEnvironment(identity) else {
            throw CLIError.failed("\(identity) lasts one run and has no accounts to sign in to; choose a server with --env URL")
        }
        return environment
    }

    var api: String { environment.identity.description }

    /// The context keeping `account`'s credential.
    func context(for account: String) -> FileAPIContext {
        FileAPIContext(environment: environment, fileURL: fileURL, holder: .person(account: account))
    }

    /// The context of the file as a whole (its holder is irrelevant to the defaults it edits).
    var anyContext: FileAPIContext { context(for: "") }

    /// The accounts signed in to the API here, by name.
    func signedInAccounts() throws -> [String] {
        try FileAPIContext.people(in: fileURL, for: environment.identity).accounts.sorted()
    }

    /// The account a command means (``AccountChoice``).
    func account(named: String?) throws -> String? {
        try AccountChoice.account(named: named, defaultAccount: try anyContext.defaultAccount())
    }

    /// A client for the API's unauthenticated routes (the token, device and revocation endpoints).
    func tokenClient() -> APIClient {
        APIClient(baseURL: environment.baseURL, transport: transport, defaultTimeout: .seconds(30))
    }

    /// A client whose requests carry `account`'s token (refreshed when needed, never granted anew).
    func personClient(_ account: String) -> APIClient {
        APIClientStack(context: context(for: account), transport: transport, clientCredentials: clientCredentials, person: account).client
    }
}

/// `--account`: whose data and credential a command uses.
struct AccountOption: ParsableArguments {
    @Option(name: .customLong("account"), help: ArgumentHelp("Which signed-in account (default: $MARQUEE_ACCOUNT, else 'account' in the config file, else the API's default account).", valueName: "name"))
    var account: String?
}

/// Which account a command means: `--account`, else `MARQUEE_ACCOUNT`, else the config file's
/// `account`, else the API's default (the first signed in, or the one `marquee auth use` chose).
enum AccountChoice {
    static func account(
        named: String?, defaultAccount: @autoclosure () throws -> String?,
        environment variables: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> String? {
        if let named, !named.isEmpty { return named.lowercased() }
        if let fromEnvironment = variables["MARQUEE_ACCOUNT"], !fromEnvironment.isEmpty { return fromEnvironment.lowercased() }
        do {
            if let fromFile = try ConfigFile.read(AppPaths.configFile(environment: variables))?.account { return fromFile.lowercased() }
        } catch {
            throw CLIError.failed(error.description)
        }
        return try defaultAccount()
    }
}
