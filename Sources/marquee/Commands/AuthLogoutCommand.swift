import ArgumentParser
import MovieAPI

/// `marquee auth logout`: forget the credential of an API.
struct AuthLogoutCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "logout",
        abstract: "Remove the credential stored for an API; the next request signs in again."
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
