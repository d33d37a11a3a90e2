import Foundation
import MovieBrowser
import MovieStore
import Movies
import NIOConcurrencyHelpers

/// The browser's watchlist of a server API with nobody signed in (or whose person's session
/// ended): the first time the Watchlist segment needs the list it signs a person in with the
/// device flow, the code on screen, and from then on it is that person's list, synced with their
/// credential. Until then it shows nothing of anyone's. A sign-in another process stores
/// meanwhile (`marquee login` in another terminal) is taken as it is made, and ends the device
/// flow under way.
final class SigningInWatchlist: BrowserWatchlist {
    /// Signs a person in, showing the progress, and gives their watchlist; or why it did not happen.
    typealias SignIn = @Sendable (@escaping @Sendable (BrowserSignIn) -> Void) async -> Result<(AppWatchlist, account: String), SignInFailure>
    /// The watchlist of `account`, signed in elsewhere.
    typealias Watchlist = @Sendable (_ account: String) -> AppWatchlist

    struct SignInFailure: Error {
        let reason: String
    }

    /// Who is signed in here, and what the sign-ins stand at.
    private struct Person {
        var watchlist: AppWatchlist?
        var account: String?
        /// The device flow under way, ended when a sign-in made elsewhere is taken.
        var flow: Task<Result<(AppWatchlist, account: String), SignInFailure>, Never>?
        /// The access token of the sign-in that ended here: the file may still hold it, and it
        /// is no new sign-in.
        var endedToken: String?
    }

    private let person: NIOLockedValueBox<Person>
    private let signIn: SignIn
    private let elsewhere: SignInElsewhere?
    private let watchlistOf: Watchlist
    /// The catalogue's feed on the application's token, followed until someone signs in.
    private let catalogueFeed: (any LiveFeed)?

    /// `signedIn`: the person signed in already, whose list it is until their sign-in ends;
    /// `elsewhere`: where a sign-in made by another process is looked for.
    init(
        signedIn: (AppWatchlist, account: String)? = nil, catalogueFeed: (any LiveFeed)?, elsewhere: SignInElsewhere? = nil,
        watchlistOf: @escaping Watchlist, signIn: @escaping SignIn
    ) {
        person = NIOLockedValueBox(Person(watchlist: signedIn?.0, account: signedIn?.account))
        self.signIn = signIn
        self.elsewhere = elsewhere
        self.watchlistOf = watchlistOf
        self.catalogueFeed = catalogueFeed
    }

    func signInIfNeeded(_ show: @escaping @Sendable (BrowserSignIn) -> Void) async -> BrowserSignInOutcome {
        guard current == nil else { return .notNeeded }
        if let found = elsewhere?.stored(), let account = adopt(found) { return .signedIn(account: account) }
        let flow = Task { [signIn] in await signIn(show) }
        person.withLockedValue { $0.flow = flow }
        let outcome = await withTaskCancellationHandler { await flow.value } onCancel: { flow.cancel() }
        return person.withLockedValue { person -> BrowserSignInOutcome in
            person.flow = nil
            if person.watchlist != nil, let account = person.account { return .signedIn(account: account) }
            switch outcome {
            case let .success((watchlist, account)):
                person.watchlist = watchlist
                person.account = account
                return .signedIn(account: account)
            case let .failure(failure):
                return .failed(failure.reason)
            }
        }
    }

    func view() async throws -> WatchlistView {
        guard let watchlist = current else { return WatchlistView(lines: [], pendingChanges: 0, pulledAt: nil, serverHasNone: false) }
        return try await watchlist.view()
    }

    func change(movieID: Int, add: Bool) async throws {
        guard let watchlist = current else { throw SignInFailure(reason: "sign in to change the watchlist") }
        try await watchlist.change(movieID: movieID, add: add)
    }

    func sync() async -> String? {
        guard let watchlist = current else { return "not signed in" }
        return await watchlist.sync()
    }

    func signedOut() async {
        let ended = elsewhere?.stored()?.accessToken
        person.withLockedValue { $0 = Person(endedToken: ended) }
    }

    /// The person's feed once someone is signed in; before, the catalogue's, while the
    /// credentials file is watched for a sign-in made elsewhere, which ends it.
    func follow(_ report: @escaping @Sendable (BrowserLive) async -> Void) async {
        if let watchlist = current {
            await watchlist.follow(report)
            return
        }
        // The catalogue's feed may stop for good (a server without one); the watch goes on.
        await withTaskGroup(of: Bool.self) { group in
            if let catalogueFeed {
                group.addTask {
                    await BrowserFollowing.catalogue(catalogueFeed, report: report)
                    return false
                }
            }
            if let elsewhere {
                group.addTask { [self] in
                    guard let account = await elsewhere.wait(until: { adopt($0) != nil }) else { return true }
                    await report(.signedIn(account: account))
                    return true
                }
            }
            for await watchEnded in group where watchEnded {
                group.cancelAll()
            }
        }
    }

    private var current: AppWatchlist? { person.withLockedValue { $0.watchlist } }

    /// Makes the sign-in `found` in the credentials file this list's, unless someone is signed in
    /// here already or it is the one that ended; the device flow under way, if any, ends.
    private func adopt(_ found: (account: String, accessToken: String)) -> String? {
        person.withLockedValue { person -> String? in
            guard person.watchlist == nil, found.accessToken != person.endedToken else { return nil }
            person.watchlist = watchlistOf(found.account)
            person.account = found.account
            person.flow?.cancel()
            return found.account
        }
    }
}

extension SigningInWatchlist.SignInFailure: CustomStringConvertible {
    var description: String { reason }
}
