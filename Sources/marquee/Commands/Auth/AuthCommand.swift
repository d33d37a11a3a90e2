import ArgumentParser
import MovieAPI

/// `marquee auth`: the credentials stored for an API: the people signed in, and the client's own.
struct AuthCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "auth",
        abstract: "Show the credentials stored for an API, pick the default account, or forget the client's own credential.",
        subcommands: [AuthStatusCommand.self, AuthUseCommand.self, AuthForgetCommand.self]
    )

    /// The context of the client's own stored credential for `options`' API (the client of
    /// `MARQUEE_CLIENT_ID`), or `nil` (after saying so) for an API whose credential lasts one run.
    static func storedContext(_ options: EnvironmentOption) throws -> FileAPIContext? {
        let identity = try options.selection.identity
        guard let context = CompositionRoot.persistentContext(for: identity) else {
            print("The credential of \(identity) lasts for one run only; nothing is stored.")
            return nil
        }
        return context
    }
}
