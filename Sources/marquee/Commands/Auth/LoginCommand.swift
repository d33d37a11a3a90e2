import ArgumentParser
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import MovieAPI
import TextFormatting

/// `marquee login`: signs a person in from the terminal with the device flow (RFC 8628). Prints the
/// page's address and the code (and the address with the code in it), waits at the server's
/// interval, and says who signed in. Signing in again, as someone else, adds an account; the
/// first becomes the API's default.
struct LoginCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "login",
        abstract: "Sign in to an API as a person: open the page it names, enter the code, approve.",
        discussion: "Press Ctrl-C to stop waiting; nothing is stored until the sign-in is approved."
    )

    @OptionGroup var options: EnvironmentOption

    @Option(name: .customLong("device-name"), help: ArgumentHelp("What the page and your sessions call this device (default: marquee on this host's name).", valueName: "name"))
    var deviceName: String?

    func run() async throws {
        try await PersonContext.with(options) { person in
            do {
                try await person.anyContext.checkSignInCanBeStored()
            } catch {
                throw CLIError.failed("a sign-in could not be kept: \(ErrorReporter.describe(error)) (no code was asked for)")
            }
            let signIn = DeviceSignIn(client: person.tokenClient(), clientCredentials: person.clientCredentials)
            let offer = try await signIn.start(deviceName: deviceName ?? "marquee on \(ProcessInfo.processInfo.hostName)", api: person.api)
            print("To sign in to \(person.api), open \(TerminalText.safe(offer.verificationURI)) and enter the code \(TerminalText.safe(offer.userCode))")
            if let complete = offer.verificationURIComplete { print("(or open \(TerminalText.safe(complete)))") }
            print("Waiting for the approval; the code expires in \(DurationText.span(TimeInterval(offer.expiresIn))). Ctrl-C stops.")
            fflush(nil)
            let credential = try await signIn.waitForApproval(of: offer)
            guard let account = TokenSubject.of(credential.accessToken) else {
                throw CLIError.failed("the server's token names no account; nothing was stored")
            }
            do {
                try await person.anyContext.storeSignIn(credential, account: account)
            } catch {
                throw CLIError.failed(ErrorReporter.describe(error))
            }
            let isDefault = try person.anyContext.defaultAccount() == account
            let shown = TerminalText.safe(account)
            print("Signed in to \(person.api) as \(shown) (through the client \(person.clientCredentials.id))\(isDefault ? "; it is the default account" : "; use --account \(shown) or 'marquee auth use \(shown)' to act as it").")
        }
    }
}
