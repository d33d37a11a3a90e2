import Foundation
import MovieBrowser
import MovieStore
import Movies
import NIOConcurrencyHelpers

/// The browser's watchlist of a server API with nobody signed in (or whose person's session
/// ended): the first time the Watchlist segment needs the list it signs a person in with the
/// device flow, the code on screen, and from then on it is that person's list, synced with their
/// credential. Until then it shows nothing of anyone's.
final class SigningInWatchlist: BrowserWatchlist {
    /// Signs a person in, showing the progress, and gives their watchlist; or why it did not happen.
    typealias SignIn = @Sendable (@escaping @Sendable (BrowserSignIn) -> Void) async -> Result<(AppWatchlist, account: String), SignInFailure>

    struct SignInFailure: Error {
        let reason: String
    }

    private let current: NIOLockedValueBox<AppWatchlist?>
    private let signIn: SignIn
    /// The catalogue's feed on the application's token, followed until someone signs in.
    private let catalogueFeed: (any LiveFeed)?

    /// `signedIn`: the person signed in already, whose list it is until their sign-in ends.
    init(signedIn: AppWatchlist? = nil, catalogueFeed: (any LiveFeed)?, signIn: @escaping SignIn) {
        current = NIOLockedValueBox(signedIn)
        self.signIn = signIn
        self.catalogueFeed = catalogueFeed
    }

    func signInIfNeeded(_ show: @escaping @Sendable (BrowserSignIn) -> Void) async -> BrowserSignInOutcome {
        guard current.withLockedValue({ $0 }) == nil else { return .notNeeded }
        switch await signIn(show) {
        case let .success((watchlist, account)):
            current.withLockedValue { $0 = watchlist }
            return .signedIn(account: account)
        case let .failure(failure):
            return .failed(failure.reason)
        }
    }

    func view() async throws -> WatchlistView {
        guard let watchlist = current.withLockedValue({ $0 }) else { return WatchlistView(lines: [], pendingChanges: 0, pulledAt: nil, serverHasNone: false) }
        return try await watchlist.view()
    }

    func change(movieID: Int, add: Bool) async throws {
        guard let watchlist = current.withLockedValue({ $0 }) else { throw SignInFailure(reason: "sign in to change the watchlist") }
        try await watchlist.change(movieID: movieID, add: add)
    }

    func sync() async -> String? {
        guard let watchlist = current.withLockedValue({ $0 }) else { return "not signed in" }
        return await watchlist.sync()
    }

    func signedOut() async {
        current.withLockedValue { $0 = nil }
    }

    func follow(_ report: @escaping @Sendable (BrowserLive) async -> Void) async {
        if let watchlist = current.withLockedValue({ $0 }) {
            await watchlist.follow(report)
        } else if let catalogueFeed {
            await BrowserFollowing.catalogue(catalogueFeed, report: report)
        }
    }
}

extension SigningInWatchlist.SignInFailure: CustomStringConvertible {
    var description: String { reason }
}
