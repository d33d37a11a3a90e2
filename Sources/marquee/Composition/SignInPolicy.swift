import Foundation
import MovieAPI

/// Who a run acts for, and what it may do when that person is not signed in: the account the
/// options and the credentials file choose on an API whose watchlists are kept by a server, and
/// the one-line refusals that say how to sign in.
struct SignInPolicy {
    /// The account a run means, and whether it holds a credential here.
    struct Choice {
        var account: String
        var signedIn: Bool
    }

    let identity: APIIdentity
    let home: WatchlistHome
    /// The account `--account` names, if any.
    let accountOption: String?

    init(_ options: ClientOptions, selection: APISelection) {
        identity = selection.identity
        home = WatchlistHome(selection)
        accountOption = options.accountOption.account
    }

    /// The account a run on a server API means (``AccountChoice``), and whether it holds a
    /// credential here; nil when none is chosen, or for an API whose list is kept on this machine.
    func choice() throws -> Choice? {
        guard home == .server, APIEnvironment(identity) != nil else { return nil }
        let people: (accounts: Set<String>, defaultAccount: String?)
        do {
            people = try FileAPIContext.people(in: AppPaths.credentialsFile(), for: identity)
        } catch {
            throw CLIError.failed("cannot tell who is signed in to \(identity): \(ErrorReporter.describe(error))")
        }
        guard let account = try AccountChoice.account(named: accountOption, defaultAccount: people.defaultAccount) else { return nil }
        return Choice(account: account, signedIn: people.accounts.contains(account))
    }

    /// The refusal of a watchlist command for `account`, who holds no credential here.
    func notSignedIn(_ account: String, changes: Bool) -> CLIError {
        .failed("\(account) is not signed in to \(identity); run 'marquee login --env \(identity.key)'\(changes ? " (nothing was changed)" : "")")
    }

    /// The refusal of a watchlist command when nobody is signed in; `changes`: the command would
    /// have changed the list, and says that nothing was.
    func nobodySignedIn(changes: Bool) -> CLIError {
        .failed("nobody is signed in to \(identity), whose watchlist belongs to a person: run 'marquee login --env \(identity.key)'\(changes ? " (nothing was changed)" : "")")
    }

    /// What browse says of a list it shows but may not change.
    func browseReason(for choice: Choice?) -> String {
        let who = choice.map { "\($0.account) is not signed in" } ?? "nobody is signed in"
        return "\(who): run 'marquee login' to change the watchlist"
    }
}
