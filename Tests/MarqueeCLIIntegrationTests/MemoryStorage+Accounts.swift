@testable import MovieServer

extension MemoryStorage {
    /// The owner key of the watchlist of the account named `name` (by its id), or a key no list
    /// has when there is no such account.
    func owner(ofAccount name: String) -> String {
        WatchlistOwner.account(id: account(named: name)?.id ?? "no account named \(name)")
    }

    /// The sign-ins of the account's devices, not its sessions on the sign-in page.
    func deviceSignIns(ofAccount name: String) -> [StoredSignIn] {
        signIns(ofAccount: name).filter { $0.clientID != SignInPage.clientID }
    }
}
