import ArgumentParser
import MovieAPI

/// `marquee auth forget`: forget the client's own credential for an API (a person signs out with
/// `marquee logout`).
struct AuthForgetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "forget",
        abstract: "Remove the client's own credential stored for an API; the next request gets a new one. People sign out with 'marquee logout'."
    )

    @OptionGroup var options: EnvironmentOption

    func run() async throws {
        guard let context = try AuthCommand.storedContext(options) else { return }
        let api = context.environment.identity
        guard await context.credential() != nil else {
            print("The client holds no credential of its own for \(api); nothing to forget.")
            return
        }
        do {
            try await context.store(nil)
        } catch {
            throw CLIError.failed(ErrorReporter.describe(error))
        }
        print("Forgot the client's own credential for \(api); the next request gets a new one.")
    }
}
