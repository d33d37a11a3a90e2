import ArgumentParser
import MovieAPI

/// `marquee auth`: the stored credential of an API.
struct AuthCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "auth",
        abstract: "Show or remove the credential stored for an API.",
        subcommands: [AuthStatusCommand.self, AuthLogoutCommand.self]
    )

    /// The stored credential's context for `options`' API, or `nil` (after saying so) for an API
    /// whose credential lasts one run.
    static func storedContext(_ options: EnvironmentOption) throws -> FileAPIContext? {
        let identity = try options.selection.identity
        guard let context = CompositionRoot.persistentContext(for: identity) else {
            print("The credential of \(identity) lasts for one run only; nothing is stored.")
            return nil
        }
        return context
    }
}
