import Foundation
import MarqueeTestSupport
import MovieBrowser
import Movies
import MovieStore
import Synchronization
import Testing

/// A person's watchlist whose sign-ins the test decides: the device flow fails with a reason or
/// waits for ever, and each run of `follow` is counted and told to the test, which says what that
/// run reports.
final class ElsewhereList: BrowserWatchlist {
    let flowFailure: String?
    let signedIn = Mutex<String?>(nil)
    let follows = Mutex<[Bool]>([])
    let feeds: AsyncStream<AsyncStream<BrowserLive>.Continuation>.Continuation
    let opened: AsyncStream<AsyncStream<BrowserLive>.Continuation>

    init(flowFailure: String? = nil, signedIn account: String? = nil) {
        self.flowFailure = flowFailure
        signedIn.withLock { $0 = account }
        (opened, feeds) = AsyncStream.makeStream()
    }

    func view() async throws -> WatchlistView {
        let lines = signedIn.withLock { $0 } == nil ? [] : [WatchlistView.Line(movieID: 6, note: "alice's pick", changedAt: 1, pending: nil, movie: Sample.ten[5])]
        return WatchlistView(lines: lines, pendingChanges: 0, pulledAt: nil, serverHasNone: false)
    }

    func change(movieID: Int, add: Bool) async throws {}
    func sync() async -> String? { signedIn.withLock { $0 } == nil ? "not signed in" : nil }

    func signInIfNeeded(_ show: @escaping @Sendable (BrowserSignIn) -> Void) async -> BrowserSignInOutcome {
        guard signedIn.withLock({ $0 }) == nil else { return .notNeeded }
        show(.code(page: "http://sign.test/device", userCode: "BCDF-GHJK", complete: nil))
        if let flowFailure { return .failed(flowFailure) }
        while !Task.isCancelled, signedIn.withLock({ $0 }) == nil { try? await Task.sleep(for: .milliseconds(5)) }
        return signedIn.withLock { $0 }.map { .signedIn(account: $0) } ?? .failed("cancelled")
    }

    func signedOut() async { signedIn.withLock { $0 = nil } }

    /// Records whether someone was signed in when this run began, and hands the test its feed.
    func follow(_ report: @escaping @Sendable (BrowserLive) async -> Void) async {
        follows.withLock { $0.append(signedIn.withLock { $0 } != nil) }
        let (feed, send) = AsyncStream<BrowserLive>.makeStream()
        feeds.yield(send)
        for await live in feed { await report(live) }
    }
}

@Suite("Browse: sign-ins made and ended elsewhere", .timeLimit(.minutes(1)))
struct BrowserSignInElsewhereTests {
    @Test("a sign-in another terminal made ends the sign-in screen, shows the person's list, and follows their feed from then on")
    func signedInElsewhere() async throws {
        let list = ElsewhereList()
        let session = try await RunningSession(policy: .cacheOnly) { _ in list }
        var feeds = list.opened.makeAsyncIterator()
        let catalogue = try #require(await feeds.next())
        _ = await session.frame { $0.watchlist.signIn != nil }
        list.signedIn.withLock { $0 = "alice" }
        catalogue.yield(.signedIn(account: "alice"))
        let shown = await session.frame { $0.watchlist.signIn == nil && $0.watchlist.lines.map(\.note) == ["alice's pick"] }
        #expect(shown != nil)
        _ = try #require(await feeds.next())
        #expect(list.follows.withLock { $0 }.last == true, "the person's feed is followed")
        session.press(.character("q"))
        #expect(await session.ending.value == .quit)
    }

    @Test("after a sign-out the catalogue's feed is followed again, its state on the status line, not the person's 'signed out'")
    func signedOutFollowsTheCatalogue() async throws {
        let list = ElsewhereList(signedIn: "alice")
        let session = try await RunningSession(policy: .cacheOnly) { _ in list }
        var feeds = list.opened.makeAsyncIterator()
        let person = try #require(await feeds.next())
        person.yield(.status("live"))
        _ = await session.frame { $0.live == "live" }
        person.yield(.status("not live: signed out of the API as alice"))
        person.yield(.signedOut("signed out of the API as alice"))
        let catalogue = try #require(await feeds.next())
        #expect(list.follows.withLock { $0 } == [true, false], "the second run follows the catalogue, after the person was forgotten")
        _ = await session.frame { $0.live == nil && $0.watchlist.signIn != nil }
        catalogue.yield(.status("live"))
        let live = await session.frame { $0.live == "live" }
        #expect(live?.watchlist.signIn != nil, "the sign-in screen is up")
        session.press(.character("q"))
        #expect(await session.ending.value == .quit)
    }

    @Test("a device flow that ends without a person leaves its reason on the sign-in screen, not an empty list")
    func expiredCode() async throws {
        let list = ElsewhereList(flowFailure: "not signed in: the code expired before it was approved")
        let session = try await RunningSession(policy: .cacheOnly) { _ in list }
        let ended = await session.frame { $0.watchlist.signIn == .ended("not signed in: the code expired before it was approved") && !$0.watchlist.isSyncing }
        #expect(ended != nil)
        session.press(.left, .character("r"))
        _ = await session.frame { $0.watchlist.signIn == .code(page: "http://sign.test/device", userCode: "BCDF-GHJK", complete: nil) }
        session.press(.character("q"))
        #expect(await session.ending.value == .quit)
    }
}
