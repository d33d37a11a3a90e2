import Foundation
import MovieAPI
import Movies
import NetworkTestSupport
import Testing

/// `marquee watchlist --follow` against a server that streams a line without an end: the person
/// is told why the stream was dropped, and it is opened again.
@Suite("The live feed from a hostile server", .timeLimit(.minutes(2)))
struct HostileFollowTests {
    @Test("--follow says the server sent a line over 64 KiB, waits what it says, and reconnects; with a data: line per event without end, an event over 1 MiB", arguments: [
        (HostileEventServer.Behaviour.endlessLine, "the server sent a line over 64 KiB"),
        (.endlessDataLines, "the server sent an event over 1 MiB"),
    ])
    func droppedAndReopened(behaviour: HostileEventServer.Behaviour, reason: String) async throws {
        let server = try await HostileEventServer.start()
        let api = server.baseURL(for: behaviour).absoluteString
        let home = try TemporaryConfigHome()
        let environment = try #require(APIEnvironment(APIIdentity(baseURL: try APIBaseURL(api))))
        let signedIn = Credential(accessToken: "alice-access", refreshToken: "alice-refresh", issuedAt: Date(), expiresAt: Date().addingTimeInterval(3_600))
        try await FileAPIContext(environment: environment, fileURL: home.credentialsFile, holder: .person(account: "alice")).storeSignIn(signedIn, account: "alice")

        let follow = try home.marquee.launch(["watchlist", "--follow", "--env", api])
        let dropped = try #require(await follow.nextErrorLine(containing: "reconnecting in"))
        #expect(dropped.wholeMatch(of: /marquee: reconnecting in (1(\.[0-9])?|2) s: (.+)/)?.3 == Substring(reason), "\(dropped)")
        #expect(await follow.nextErrorLine(containing: "marquee: live") != nil, "opened again")
        #expect(server.streams >= 2)
        _ = await follow.signal(SIGINT)
        await server.stop()
    }
}
