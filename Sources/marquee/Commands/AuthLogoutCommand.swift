import ArgumentParser
import MovieAPI

/// `marquee auth logout`: forget the client's own credential for an API (a person signs out with
/// `marquee logout`).
struct AuthLogoutCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "logout",
        abstract: "Remove the client's own credential stored for an API; the next request gets a new one. People sign out with 'marquee logout'."
    )

    @OptionGroup var options: EnvironmentOption

    func run() async throws {
        guard let context = try AuthCommand.storedContext(options) else { return }
        let api = context.environment.identity
        guard await context.credential() != nil else {
            print("Not signed in to \(api); nothing to remove.")
            return
        }
        do {
            try await context.store(nil)
        } catch {
            throw CLIError.failed(ErrorReporter.describe(error))
        }
        print("Signed out of \(api).")
    }
}
