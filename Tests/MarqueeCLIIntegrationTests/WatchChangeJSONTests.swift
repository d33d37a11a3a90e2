import Foundation
import MarqueeTestSupport
import ServerTestSupport
import Testing

/// `watch add --json` and `watch remove --json`: one line naming the change made, its time, and
/// what became of it, which scripts (`scripts/chaos`) keep as their history.
@Suite("watch --json", .serialized, .timeLimit(.minutes(3)))
struct WatchChangeJSONTests {
    let marquee = MarqueeProcess()

    @Test("a change sent, one kept offline, and a removal that changes nothing, each one line of JSON")
    func linesName() async throws {
        let database = try await LiveServers.database()
        let port = try PostgresCluster.freeLoopbackPort()
        let server = try await LiveServers.serve(marquee, database, port: port)
        try await finally(try await {
            let api = "http://127.0.0.1:\(port)/api/"
            #expect(try await LoginFlow.login(marquee, api: api, port: port, as: "alice").status == 0)
            func line(_ arguments: [String]) async throws -> [String: Any] {
                let run = try await marquee.run(arguments + ["--json", "--env", api])
                #expect(run.status == 0, "\(run.standardError)")
                #expect(run.standardOutput.split(separator: "\n").count == 1, "\(run.standardOutput)")
                return try #require(try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any])
            }
            let sent = try await line(["watch", "add", "3", "--note", "Friday"])
            #expect(sent["changed"] as? Bool == true && sent["action"] as? String == "add" && sent["movieId"] as? Int == 3)
            #expect(sent["note"] as? String == "Friday" && sent["delivery"] as? String == "sent")
            #expect((sent["changeId"] as? String)?.count == 36, "the change's id, as the server's journal keeps it")
            #expect((sent["changedAt"] as? String)?.hasSuffix("Z") == true)
            let kept = try await line(["watch", "remove", "3", "--offline"])
            #expect(kept["action"] as? String == "remove" && kept["delivery"] as? String == "pending")
            #expect(kept["changeId"] as? String != sent["changeId"] as? String)
            let nothing = try await line(["watch", "remove", "5"])
            #expect(nothing["changed"] as? Bool == false && nothing["changeId"] == nil && nothing["movieId"] as? Int == 5)
        }()) {
            _ = await server.process.signal(SIGKILL)
        }
    }
}
