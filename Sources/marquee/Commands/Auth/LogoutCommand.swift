import ArgumentParser
import Foundation
import MovieAPI
import MovieStore
import TextFormatting
import Networking

/// `marquee logout`: ends a person's sign-in at the server (their refresh token is revoked, RFC
/// 7009) and forgets it here; `--everywhere` signs every device of the account out first. The
/// changes the person has not sent stay in the store, for their next sign-in, unless
/// `--discard-pending` drops them (and says how many).
struct LogoutCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "logout",
        abstract: "Sign a person out of an API, here (and with --everywhere, on every device)."
    )

    @OptionGroup var options: APIOptions
    @OptionGroup var accountOption: AccountOption

    @Flag(name: .customLong("everywhere"), help: "Sign every device of the account out, not only this one.")
    var everywhere = false

    @Flag(name: .customLong("discard-pending"), help: "Also drop the watchlist changes of the account not sent yet (they are kept for its next sign-in otherwise).")
    var discardPending = false

    func run() async throws {
        try await PersonContext.with(options.api) { person in
            guard let account = try person.account(named: accountOption.account) else {
                print("Nobody is signed in to \(person.api); nothing to do.")
                return
            }
            let pending = try await pendingNote(api: person.environment.identity.key, account: account)
            let shown = TerminalText.safe(account)
            let context = person.context(for: account)
            guard let credential = await context.credential() else {
                print("\(shown) is not signed in to \(person.api)\(pending).")
                return
            }
            var serverNote = ""
            do {
                if everywhere {
                    _ = try await person.personClient(account).send(APIRoute.endAllSessions)
                    serverNote = "; every device of \(shown) was signed out"
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
            print("Signed \(shown) out of \(person.api)\(serverNote)\(pending).")
        }
    }

    /// What became of the account's unsent changes: dropped (with `--discard-pending`) or kept.
    private func pendingNote(api: String, account: String) async throws -> String {
        let key = WatchlistScope.key(api: api, account: account)
        guard FileManager.default.fileExists(atPath: options.storeURL.path) else { return "" }
        do {
            let store = try MovieStore(url: options.storeURL)
            if discardPending {
                let dropped = try await store.discardPendingWatchlistChanges(api: key)
                return "; \(NumberText.counted(dropped, "unsent watchlist change")) dropped"
            }
            let kept = try await store.pendingWatchlistChangeCount(api: key)
            return kept == 0 ? "" : "; \(NumberText.counted(kept, "unsent watchlist change")) kept for the next sign-in"
        } catch {
            throw CLIError.failed(ErrorReporter.describe(error))
        }
    }
}
