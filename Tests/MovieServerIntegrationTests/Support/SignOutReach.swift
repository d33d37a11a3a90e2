import Foundation
import MarqueeTestSupport
import NetworkTestSupport
import Testing

/// A person with two devices streaming on `b` signs one out on `a`: that stream ends within a
/// bound far below the heartbeat, the other goes on, and no reader is sent the sign-out.
enum SignOutReach {
    static func check(signingOutOn a: ServerClient, streamingOn b: ServerClient) async throws {
        let laptop = try await PersonSignIn.tokens("alice", device: "laptop", on: b)
        let phone = try await PersonSignIn.tokens("alice", signUp: false, device: "phone", on: b)
        let ending = try await RawConnection.open(
            port: b.server.port, sending: "GET /api/events HTTP/1.1\r\nHost: t\r\nAuthorization: Bearer \(laptop.access)\r\n\r\n"
        )
        let staying = try await FeedStreams.stream(b, token: phone.access)
        defer { staying.close() }
        _ = try await staying.wait { !$0.isEmpty }
        let opened = try await ending.read(until: "event: ready", limit: .seconds(10))
        #expect(opened != nil, "\(opened ?? "")")

        let began = ContinuousClock.now
        let revoked = try await a.get(
            "/api/auth/revoke", method: .POST, headers: TokenForms.form,
            body: "token=\(laptop.refresh)&token_type_hint=refresh_token&client_id=marquee-dev&client_secret=marquee-dev-secret"
        )
        #expect(revoked.status == 200)
        let ended = try await ending.readUntilClosed(limit: .seconds(20))
        #expect(ended.closedByServer, "the signed-out device's stream was closed by the server")
        // The heartbeat is 10 minutes away; a full suite on 2 cores needs room above the poll's 250 ms.
        #expect(ContinuousClock.now - began < .seconds(10))
        #expect(!ended.text.contains("sign-out") && !ended.text.contains("event: watchlist"), "\(ended.text)")
        await ending.close()

        try await FeedStreams.note(try await Watchlister(b, token: phone.access), movie: 7, "still streaming")
        let events = try await staying.wait { $0.contains { $0.type == "watchlist" } }
        #expect(events.map(\.type) == ["ready", "watchlist"], "\(events)")
        #expect(b.server.server.openEventStreams == 1)
    }
}
