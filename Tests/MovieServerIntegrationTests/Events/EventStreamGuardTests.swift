import Foundation
import MarqueeTestSupport
import MovieServer
import NetworkTestSupport
import Networking
import Testing

/// What one token can do with the feed: keep a stream past its own expiry, open one after its
/// sign-in ended, or take every stream an instance holds.
@Suite("Event streams against one token", .timeLimit(.minutes(3)))
struct EventStreamGuardTests {
    static func auth(lifetime: Int, leeway: TimeInterval, now: @escaping @Sendable () -> Date = { Date() }) -> AuthConfiguration {
        var auth = PersonSignIn.auth(now: now)
        auth.accessTokenLifetime = .seconds(lifetime)
        auth.clockSkewLeeway = leeway
        return auth
    }

    @Test("a stream ends when its token lapses (its exp and the leeway), a person's and an application's, without waiting for a heartbeat")
    func endsWhenTheTokenLapses() async throws {
        try await withServerClient(auth: Self.auth(lifetime: 2, leeway: 1)) { client in
            let person = try await PersonSignIn.tokens("alice", on: client)
            let began = ContinuousClock.now
            let streams = [
                try await FeedStreams.stream(client, token: person.access),
                try await FeedStreams.stream(client, token: try await FeedStreams.appToken(client)),
            ]
            defer { streams.forEach { $0.close() } }
            for stream in streams {
                #expect(stream.status == 200)
                #expect(try await stream.waitForEnd(limit: .seconds(10)), "the heartbeat is 15 s: only the token's lapse ends it this soon")
            }
            #expect(ContinuousClock.now - began >= .seconds(2))
        }
    }

    @Test("a clock moved past the token's lapse ends the stream at the next heartbeat")
    func endsByTheServersClock() async throws {
        let clock = ManualClock(Date())
        var feed = FeedSettings()
        feed.heartbeat = .milliseconds(200)
        try await withServerClient(auth: Self.auth(lifetime: 600, leeway: 60, now: clock.now), feed: feed) { client in
            let person = try await PersonSignIn.tokens("alice", on: client)
            let stream = try await FeedStreams.stream(client, token: person.access)
            defer { stream.close() }
            try await FeedStreams.note(try await Watchlister(client, token: person.access), movie: 6, "while valid")
            _ = try await stream.wait { $0.contains { $0.type == "watchlist" } }
            #expect(!stream.hasEnded)
            clock.advance(by: 661)
            #expect(try await stream.waitForEnd(limit: .seconds(10)))
        }
    }

    @Test("an access token whose sign-in has ended gets no stream and no catch-up: 401 at once")
    func endedSignInIsRefusedAtOpen() async throws {
        try await withServerClient(auth: PersonSignIn.auth()) { client in
            let (access, refresh) = try await PersonSignIn.tokens("alice", on: client)
            try await FeedStreams.note(try await Watchlister(client, token: access), movie: 6, "alice's private note")
            let revoked = try await client.get(
                "/api/auth/revoke", method: .POST, headers: TokenForms.form,
                body: "token=\(refresh)&client_id=marquee-dev&client_secret=marquee-dev-secret"
            )
            #expect(revoked.status == 200)
            let stream = try await FeedStreams.stream(client, token: access, lastEventID: "0")
            defer { stream.close() }
            #expect(stream.status == 401)
            #expect(!stream.events.contains { $0.data.contains("private note") })
        }
    }

    @Test("an application's own token holds at most its share of streams (16 by default) and applications together half the instance's; people still get theirs")
    func applicationsLeaveRoomForPeople() async throws {
        let phone = ClientCredentials(id: "phone-app", secret: "phone-secret")
        var feed = FeedSettings()
        feed.maximumStreams = 8
        feed.streamsPerApplication = 3
        let proxy = try TrustedProxies.Range(parsing: "127.0.0.1")
        try await withServerClient(auth: PersonSignIn.auth(clients: [.development, phone]), feed: feed, trustedProxies: TrustedProxies([proxy])) { client in
            let app = try await FeedStreams.appToken(client)
            let issued = try await client.get(
                "/api/auth/token", method: .POST, headers: TokenForms.form,
                body: "grant_type=client_credentials&client_id=phone-app&client_secret=phone-secret"
            )
            let other = try #require(issued.json?["access_token"] as? String)
            var open: [EventStreamTap] = []
            defer { open.forEach { $0.close() } }
            for _ in 0..<3 { open.append(try await FeedStreams.stream(client, token: app)) }
            let fourth = try await FeedStreams.stream(client, token: app)
            open.append(fourth)
            #expect(fourth.status == 429, "one application's share")
            open.append(try await FeedStreams.stream(client, token: other))
            let sixth = try await FeedStreams.stream(client, token: other)
            open.append(sixth)
            #expect(sixth.status == 429, "applications together hold half of the 8")
            #expect(open.filter { $0.status == 200 }.count == 4)
            for index in 0..<4 {
                let person = try await PersonSignIn.tokens("person\(index)", on: client)
                let stream = try await FeedStreams.stream(client, token: person.access, forwardedFor: "198.51.100.\(index)")
                open.append(stream)
                #expect(stream.status == 200, "the other half is the people's")
            }
        }
    }
}
