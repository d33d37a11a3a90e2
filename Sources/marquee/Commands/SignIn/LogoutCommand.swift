import ArgumentParser
import Foundation
import MovieAPI
import Networking

/// `marquee logout`: ends a person's sign-in at the server (their refresh token is revoked, RFC
/// 7009) and forgets it here; `--everywhere` signs every device of the account out first.
struct LogoutCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "logout",
        abstract: "Sign a person out of an API, here (and with --everywhere, on every device)."
    )

    @OptionGroup var options: EnvironmentOption
    @OptionGroup var accountOption: AccountOption

    @Flag(name: .customLong("everywhere"), help: "Sign every device of the account out, not only this one.")
    var everywhere = false

    func run() async throws {
        try await PersonContext.with(options) { person in
            guard let account = try person.account(named: accountOption.account) else {
                print("Nobody is signed in to \(person.api); nothing to do.")
                return
            }
            let context = person.context(for: account)
            guard let credential = await context.credential() else {
                print("\(account) is not signed in to \(person.api); nothing to do.")
                return
            }
            var serverNote = ""
            do {
                if everywhere {
                    _ = try await person.personClient(account).send(APIRoute.endAllSessions)
                    serverNote = "; every device of \(account) was signed out"
                } else if let refreshToken = credential.refreshToken {
                    let revoke = APIRoute.revoke(refreshToken: refreshToken, clientID: person.clientCredentials.id, secret: person.clientCredentials.secret)
                    _ = try await person.tokenClient().send(revoke)
                    serverNote = "; the session was ended at the server"
                }
            } catch {
                serverNote = "; the server could not be told (\(ErrorReporter.describe(error))), so its session ends when it expires"
            }
            do {
                try await context.store(nil)
                if try person.anyContext.defaultAccount() == account {
                    try await person.anyContext.setDefaultAccount(try person.signedInAccounts().first)
                }
            } catch {
                throw CLIError.failed(ErrorReporter.describe(error))
            }
            print("Signed \(account) out of \(person.api)\(serverNote).")
        }
    }
}
