import Foundation
import MarqueeTestSupport
import MovieBrowser
import Movies
import MovieStore
import Synchronization
import Testing

/// A person's watchlist that needs a sign-in first: the sign-in waits at a gate (showing its
/// screen, or not, as the test asks), and every change asked for is recorded.
final class SigningInList: BrowserWatchlist {
    let gate = Gate()
    let showsScreen: Bool
    let changes = Mutex<[Int]>([])
    private let signedIn = Mutex(false)

    init(showsScreen: Bool) { self.showsScreen = showsScreen }

    func view() async throws -> WatchlistView { WatchlistView(lines: [], pendingChanges: 0, pulledAt: nil, serverHasNone: false) }
    func change(movieID: Int, add: Bool) async throws { changes.withLock { $0.append(movieID) } }
    func sync() async -> String? { nil }

    func signInIfNeeded(_ show: @escaping @Sendable (BrowserSignIn) -> Void) async -> BrowserSignInOutcome {
        guard !signedIn.withLock({ $0 }) else { return .notNeeded }
        if showsScreen { show(.code(page: "http://sign.test/device", userCode: "BCDF-GHJK", complete: nil)) }
        do { try await gate.pass() } catch { return .failed("cancelled") }
        signedIn.withLock { $0 = true }
        return .signedIn(account: "alice")
    }
}

@Suite("Browse: w while signed out", .timeLimit(.minutes(1)))
struct BrowserSignedOutTests {
    @Test("w while the sign-in screen is up leads to it and changes nothing; once signed in, w changes the list")
    func wLeadsToTheSignIn() async throws {
        let list = SigningInList(showsScreen: true)
        let session = try await RunningSession(policy: .cacheOnly) { _ in list }
        _ = await session.frame { !$0.pane.movies.isEmpty && $0.watchlist.signIn != nil }
        session.press(.character("w"))
        let shown = await session.frame { $0.tab == .watchlist }
        #expect(shown?.notice == "sign in first: the watchlist is a person's (nothing was changed)")
        await list.gate.open()
        _ = await session.frame { $0.watchlist.signIn == nil && $0.watchlist.status == "signed in as alice" }
        #expect(list.changes.withLock { $0 } == [])
        session.press(.right, .character("w"))
        _ = await session.frame { $0.notice?.hasPrefix("added") == true && !$0.watchlist.isSyncing }
        #expect(list.changes.withLock { $0 } == [RunningSession.stored[0].id])
        session.press(.character("q"))
        #expect(await session.ending.value == .quit)
    }

    @Test("a w typed before the sign-in screen showed is not made once the person signs in: it was decided on no one's list")
    func wBeforeTheScreen() async throws {
        let list = SigningInList(showsScreen: false)
        let session = try await RunningSession(policy: .cacheOnly) { _ in list }
        _ = await session.frame { !$0.pane.movies.isEmpty }
        session.press(.character("w"))
        _ = await session.frame { $0.watchlist.isSyncing }
        await list.gate.open()
        let refused = await session.frame { $0.notice == "signed in: press w again to change the watchlist (nothing was changed)" }
        #expect(refused != nil)
        #expect(list.changes.withLock { $0 } == [])
        session.press(.character("q"))
        #expect(await session.ending.value == .quit)
    }
}
