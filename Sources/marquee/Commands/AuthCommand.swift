import ArgumentParser
import MovieAPI

/// `marquee auth`: the stored credential of an API.
struct AuthCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "auth",
        abstract: "Show or remove the credential stored for an API.",
        subcommands: [AuthStatusCommand.self, AuthLogoutCommand.self]
    )
}

/// The `--env` option of the auth commands.
struct AuthEnvironmentOptions: ParsableArguments {
    @Option(
        name: .customLong("env"),
        help: ArgumentHelp("Which API: production, or a base URL such as http://127.0.0.1:8080/api/.", valueName: "environment")
    )
    var environment: EnvironmentOption = .embedded

    /// The stored credential's context, or `nil` (after saying so) for an environment that stores none.
    func storedContext() -> FileApiContext? {
        guard let context = CompositionRoot.persistentContext(for: environment) else {
            print("The \(environment.defaultValueDescription) environment's credential lasts for one run only; nothing is stored.")
            return nil
        }
        return context
    }
}
