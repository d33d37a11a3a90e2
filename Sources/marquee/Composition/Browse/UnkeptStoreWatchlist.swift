import MovieBrowser
import MovieStore

/// The browser's watchlist on a store that cannot keep a change this run (damaged, of a newer
/// version, in a folder that cannot be written: a throwaway store stands in for it). It shows and
/// syncs what `shown` does, and refuses every change with the store's problem: a change accepted
/// here would be lost when the run ends, before the server has it.
struct UnkeptStoreWatchlist: BrowserWatchlist {
    let shown: any BrowserWatchlist
    /// What is wrong with this machine's store, and what fixes it.
    let why: String

    var storeProblem: String? { "nothing is kept on this machine this run: \(why)" }

    func change(movieID: Int, add: Bool) async throws {
        throw CLIError.failed("this machine's store cannot keep a change: \(why)")
    }

    func view() async throws -> WatchlistView { try await shown.view() }
    func sync() async -> String? { await shown.sync() }
    func signInIfNeeded(_ show: @escaping @Sendable (BrowserSignIn) -> Void) async -> BrowserSignInOutcome { await shown.signInIfNeeded(show) }
    func follow(_ report: @escaping @Sendable (BrowserLive) async -> Void) async { await shown.follow(report) }
    func signedOut() async { await shown.signedOut() }
}
