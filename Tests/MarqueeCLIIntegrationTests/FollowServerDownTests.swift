import Foundation
import MarqueeTestSupport
import ServerTestSupport
import Testing

/// `marquee watchlist --follow` started while its server is down: the stored list, one warning
/// line in words, and the live feed waiting for the server until Ctrl-C.
@Suite("--follow with the server down", .serialized, .timeLimit(.minutes(3)))
struct FollowServerDownTests {
    let marquee = MarqueeProcess()

    @Test("the server down at the start: the stored list, a warning that names the server, no Swift value, then live once it is back, until Ctrl-C")
    func serverDownAtStart() async throws {
        let database = try await LiveServers.database()
        let port = try PostgresCluster.freeLoopbackPort()
        var server = try await LiveServers.serve(marquee, database, port: port)
        try await finally(try await {
            let api = "http://127.0.0.1:\(port)/api/"
            #expect(try await LoginFlow.login(marquee, api: api, port: port, as: "alice").status == 0)
            let added = try await marquee.run(["watch", "add", "3", "--note", "kept here", "--env", api])
            #expect(added.status == 0, "\(added.standardError)")
            #expect(await server.process.signal(SIGTERM) == 0)

            let follow = try marquee.launch(["watchlist", "--follow", "--env", api, "--log-level", "info"])
            defer { follow.send(SIGKILL) }
            let warning = try #require(await follow.nextErrorLine(containing: "marquee: warning:"))
            #expect(warning.contains("cannot connect to 127.0.0.1:\(port)"), "\(warning)")
            #expect(warning.hasSuffix("showing the list stored here, and trying to reach the server until Ctrl-C"), "\(warning)")
            #expect(!warning.contains("sentBefore") && !warning.contains("MovieStore."), "\(warning)")
            #expect(await follow.nextOutputLine(containing: "kept here") != nil, "the stored list is shown")
            // Several tries of the feed, each silent but for its line at --log-level info.
            for _ in 0..<4 {
                #expect(await follow.nextErrorLine(containing: "marquee: info: the live feed, not shown") != nil)
            }
            #expect(follow.isRunning)

            server = try await LiveServers.serve(marquee, database, port: port)
            let back = ContinuousClock.now
            #expect(await follow.nextErrorLine(containing: "marquee: live") != nil)
            #expect(ContinuousClock.now - back < .seconds(12), "back within the feed's longest wait (5 s) of the server, and its start")
            let waiting = follow.lastOutput.split(separator: "\n").filter { $0.hasPrefix("marquee: connecting") || $0.hasPrefix("marquee: reconnecting") }
            #expect(waiting.isEmpty, "the warning was the one line while it waited: \(follow.lastOutput)")
            #expect(await follow.signal(SIGINT) == SIGINT)
        }()) {
            _ = await server.process.signal(SIGKILL)
        }
    }
}
