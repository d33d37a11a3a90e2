import ArgumentParser
import MovieAPI
import TextFormatting

/// `marquee auth use NAME`: makes a signed-in account the API's default.
struct AuthUseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "use", abstract: "Make a signed-in account the default for an API."
    )

    @Argument(help: ArgumentHelp("The account.", valueName: "name"))
    var account: String

    @OptionGroup var options: EnvironmentOption

    func run() async throws {
        try await PersonContext.with(options) { person in
            let name = account.lowercased()
            guard try person.signedInAccounts().contains(name) else {
                throw CLIError.failed("\(name) is not signed in to \(person.api); run 'marquee login' first")
            }
            do {
                try await person.anyContext.setDefaultAccount(name)
            } catch {
                throw CLIError.failed(ErrorReporter.describe(error))
            }
            print("\(TerminalText.safe(name)) is now the default account of \(person.api).")
        }
    }
}
