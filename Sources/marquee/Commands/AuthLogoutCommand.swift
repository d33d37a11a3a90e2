import ArgumentParser

/// `marquee auth logout`: forget the credential of an API.
struct AuthLogoutCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "logout",
        abstract: "Remove the credential stored for an API; the next request signs in again."
    )

    @OptionGroup var options: AuthEnvironmentOptions

    func run() async throws {
        guard let context = options.storedContext() else { return }
        let signedIn = await context.credential() != nil
        await context.setCredential(nil)
        let api = context.environment.baseURL.absoluteString
        print(signedIn ? "Signed out of \(api)." : "Not signed in to \(api); nothing to remove.")
    }
}
