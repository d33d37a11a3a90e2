import Foundation
import MarqueeTestSupport
import MovieAPI
import MovieServer
import Movies
import NetworkTestSupport
import Networking
import NIOConcurrencyHelpers
import ServerTestSupport
import Testing

/// The client of the device flow against a real server whose clock the polls move: the waits it
/// takes, `slow_down` honoured for good, and the answers that end the wait.
@Suite("Device sign-in client")
struct DeviceSignInTests {
    /// A server on a clock the client's waits move, and a client that never really sleeps: each
    /// wait advances the clock by what the client asked, except that `shortBy` is taken off the
    /// second (the first poll has no earlier one to be early after), as a device whose timer
    /// fired early.
    static func withSignIn(
        shortBy: Int = 0,
        _ body: (DeviceSignIn, NIOLockedValueBox<[Int]>, ManualClock, TestMovieServer) async throws -> Void
    ) async throws {
        let clock = ManualClock(Date(timeIntervalSince1970: 1_800_000_000))
        var auth = AuthConfiguration(now: clock.now)
        auth.passwordHashCost = 4
        try await withMovieServer(auth: auth) { server in
            let waits = NIOLockedValueBox<[Int]>([])
            let transport = AsyncHTTPClientTransport()
            let client = APIClient(baseURL: server.baseURL, transport: transport)
            let signIn = DeviceSignIn(client: client, clientCredentials: APIClientCredentials(id: "marquee-dev", secret: "marquee-dev-secret"), now: clock.now) { duration in
                let seconds = Int(duration.components.seconds)
                let second = waits.withLockedValue { waits in waits.append(seconds); return waits.count == 2 }
                clock.advance(by: TimeInterval(seconds - (second ? shortBy : 0)))
            }
            try await finally(try await body(signIn, waits, clock, server)) { try? await transport.shutdown() }
        }
    }

    @Test("a poll that comes early is told slow_down: every later wait is 5 s longer; approved, the credential names the person")
    func slowDownHonoured() async throws {
        try await Self.withSignIn(shortBy: 3) { signIn, waits, _, server in
            let offer = try await signIn.start(deviceName: "test", api: "the test API")
            #expect(offer.interval == 5)
            let approval = Task { try await signIn.waitForApproval(of: offer) }
            try await Self.waitUntil { waits.withLockedValue { $0.count } >= 4 }
            #expect(try await PageClient(port: server.port).decide(offer.userCode, as: "alice", signUp: true).status == 200)
            let credential = try await approval.value
            #expect(TokenSubject.of(credential.accessToken) == "alice")
            let taken = waits.withLockedValue { $0 }
            #expect(taken.prefix(4) == [5, 5, 10, 10], "the early second poll was slowed down, and every wait after it is 10 s: \(taken)")
            #expect(taken.dropFirst(2).allSatisfy { $0 == 10 })
        }
    }

    @Test("denied: the wait ends with denied; past the expiry: expired; a server with no device endpoint: not supported")
    func endings() async throws {
        try await Self.withSignIn { signIn, _, clock, server in
            let offer = try await signIn.start(deviceName: "test", api: "the test API")
            _ = try await PageClient(port: server.port).decide(offer.userCode, as: "bob", signUp: true, approve: false)
            await #expect(throws: DeviceSignInError.self) { _ = try await signIn.waitForApproval(of: offer) }
            do { _ = try await signIn.waitForApproval(of: offer) } catch let error as DeviceSignInError {
                #expect(error.description == "the sign-in was denied on the page; nothing was signed in")
            }

            let late = try await signIn.start(deviceName: "test", api: "the test API")
            clock.advance(by: 601)
            do { _ = try await signIn.waitForApproval(of: late); Issue.record("an expired code was redeemed") } catch let error as DeviceSignInError {
                #expect(error.description.hasPrefix("the code expired before it was approved"))
            }
        }
        let site = ReferenceSiteServer()
        try await site.run { url in
            let transport = AsyncHTTPClientTransport()
            let signIn = DeviceSignIn(client: APIClient(baseURL: url, transport: transport), clientCredentials: APIClientCredentials(id: "x", secret: "y"))
            do { _ = try await signIn.start(deviceName: "test", api: "the site"); Issue.record("the static site gave a code") } catch {
                #expect("\(error)".hasPrefix("the site has no accounts to sign in to: it offers no device sign-in (it answered 40"), "\(error)")
                #expect("\(error)".hasSuffix("); is --env the Marquee server you meant?"), "\(error)")
            }
            try? await transport.shutdown()
        }
    }

    static func waitUntil(_ condition: () -> Bool) async throws {
        for _ in 0..<500 where !condition() { try await Task.sleep(for: .milliseconds(10)) }
        try #require(condition())
    }
}
