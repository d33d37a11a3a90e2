import Foundation
import MarqueeTestSupport
import MovieServer
import Movies
import ServerTestSupport
import Testing

/// `marquee watchlist --follow` against a `marquee serve` process on an SQLite file: the server
/// restarts under an open stream, and later comes back having pruned the events the client was
/// away for. Another device of the same person makes the changes.
@Suite("The live feed across a server restart", .serialized, .timeLimit(.minutes(3)))
struct LiveRestartTests {
    let phone = MarqueeProcess()
    let laptop = MarqueeProcess()

    static func object(_ line: String) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]) ?? [:]
    }

    @Test("a restart mid-stream: the client reconnects, resumes after its cursor, and prints the change made while its server was down and the one after, each once")
    func restartMidStream() async throws {
        let database = try await LiveServers.database()
        let port = try PostgresCluster.freeLoopbackPort()
        var server = try await LiveServers.serve(phone, database, port: port)
        // The laptop's instance: its changes reach the phone's through the file they share.
        let other = try await LiveServers.serve(laptop, database)
        try await finally(try await {
            let api = "http://127.0.0.1:\(port)/api/", otherAPI = "http://127.0.0.1:\(other.port)/api/"
            #expect(try await LoginFlow.login(laptop, api: otherAPI, port: other.port, as: "alice").status == 0)
            #expect(try await LoginFlow.login(phone, api: api, port: port, as: "alice", signUp: false).status == 0)
            let follow = try phone.launch(["watchlist", "--follow", "--json", "--env", api])
            defer { follow.send(SIGKILL) }
            #expect(await follow.nextErrorLine(containing: "marquee: live") != nil)
            try await expectSuccess(laptop, ["watch", "add", "3", "--note", "before", "--env", otherAPI])
            #expect(await follow.nextOutputLine(containing: "\"note\":\"before\"") != nil)

            #expect(await server.process.signal(SIGTERM) == 0)
            #expect(await follow.nextErrorLine(containing: "marquee: reconnecting in") != nil)
            // Made while the phone's server is down: it can only reach the phone from the log.
            try await expectSuccess(laptop, ["watch", "add", "6", "--note", "while away", "--env", otherAPI])
            server = try await LiveServers.serve(phone, database, port: port)
            #expect(await follow.nextErrorLine(containing: "marquee: live") != nil)
            try await expectSuccess(laptop, ["watch", "remove", "3", "--env", otherAPI])

            var lines: [String] = []
            while let line = await follow.nextOutputLine() {
                lines.append(line)
                if Self.object(line)["removed"] as? Bool == true { break }
            }
            let changes = lines.map(Self.object).filter { $0["event"] as? String == "changed" }
            #expect(changes.map { $0["movieId"] as? Int } == [6, 3], "\(lines)")
            #expect(changes.first?["note"] as? String == "while away")
            #expect(!lines.contains { $0.contains("refetched") }, "resumed from its cursor, not fetched again: \(lines)")
            let stored = try await phone.run(["watchlist", "--json", "--offline", "--env", api])
            #expect((Self.object(stored.standardOutput)["entries"] as? [[String: Any]])?.compactMap { $0["movieId"] as? Int } == [6], "\(stored.standardOutput)")
        }()) {
            _ = await server.process.signal(SIGKILL)
            _ = await other.process.signal(SIGKILL)
        }
    }

    @Test("a restart with new signing keys only: the old token is refused, the client renews with its refresh token and reopens the stream by itself, and the change made meanwhile arrives")
    func restartWithNewKeys() async throws {
        let database = try await LiveServers.database()
        let folder = URL(fileURLWithPath: database).deletingLastPathComponent()
        func keys(_ line: String, named name: String) throws -> String {
            let file = folder.appendingPathComponent(name)
            try Data((line + "\n").utf8).write(to: file)
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
            return file.path
        }
        let oldKeys = try keys("k1 " + String(repeating: "o", count: 40), named: "keys-old")
        let newKeys = try keys("k2 " + String(repeating: "n", count: 40), named: "keys-new")
        let port = try PostgresCluster.freeLoopbackPort()
        var server = try await LiveServers.serve(phone, database, port: port, extra: ["--signing-keys", oldKeys])
        try await finally(try await {
            let api = "http://127.0.0.1:\(port)/api/"
            #expect(try await LoginFlow.login(laptop, api: api, port: port, as: "alice").status == 0)
            #expect(try await LoginFlow.login(phone, api: api, port: port, as: "alice", signUp: false).status == 0)
            let follow = try phone.launch(["watchlist", "--follow", "--json", "--env", api])
            defer { follow.send(SIGKILL) }
            #expect(await follow.nextErrorLine(containing: "marquee: live") != nil)

            #expect(await server.process.signal(SIGTERM) == 0)
            #expect(await follow.nextErrorLine(containing: "marquee: reconnecting in") != nil)
            server = try await LiveServers.serve(phone, database, port: port, extra: ["--signing-keys", newKeys])
            try await expectSuccess(laptop, ["watch", "add", "6", "--note", "after new keys", "--env", api])
            #expect(await follow.nextErrorLine(containing: "marquee: live") != nil, "\(follow.lastOutput)")
            #expect(await follow.nextOutputLine(containing: "after new keys") != nil, "\(follow.lastOutput)")
        }()) { _ = await server.process.signal(SIGKILL) }
    }

    @Test("back after the kept events are gone: one reset, the list fetched again whole, and it holds what changed meanwhile")
    func resetAfterPruning() async throws {
        let database = try await LiveServers.database()
        var server = try await LiveServers.serve(phone, database, port: try PostgresCluster.freeLoopbackPort(), extra: ["--event-retention", "1"])
        try await finally(try await {
            let api = "http://127.0.0.1:\(server.port)/api/"
            #expect(try await LoginFlow.login(laptop, api: api, port: server.port, as: "alice").status == 0)
            #expect(try await LoginFlow.login(phone, api: api, port: server.port, as: "alice", signUp: false).status == 0)
            try await expectSuccess(laptop, ["watch", "add", "3", "--env", api])
            let first = try phone.launch(["watchlist", "--follow", "--json", "--env", api])
            #expect(await first.nextOutputLine(containing: "refetched") != nil, "a store with no cursor fetches the list first")
            #expect(await first.nextErrorLine(containing: "marquee: live") != nil)
            #expect(await first.signal(SIGINT) == SIGINT)

            try await expectSuccess(laptop, ["watch", "add", "6", "--note", "while away", "--env", api])
            try await expectSuccess(laptop, ["watch", "remove", "3", "--env", api])
            #expect(await server.process.signal(SIGTERM) == 0)
            try await Task.sleep(for: .milliseconds(1_500))
            // A feed prunes what is older than its retention when it starts.
            server = try await LiveServers.serve(phone, database, port: server.port, extra: ["--event-retention", "1"])

            let second = try phone.launch(["watchlist", "--follow", "--json", "--env", api])
            defer { second.send(SIGKILL) }
            let refetched = try #require(await second.nextOutputLine(containing: "refetched"))
            #expect(Self.object(refetched)["entries"] as? Int == 1)
            #expect(await second.signal(SIGINT) == SIGINT)
            let stored = try await phone.run(["watchlist", "--json", "--offline", "--env", api])
            let entries = Self.object(stored.standardOutput)["entries"] as? [[String: Any]] ?? []
            #expect(entries.compactMap { $0["movieId"] as? Int } == [6], "\(stored.standardOutput)")
            #expect(entries.first?["note"] as? String == "while away")
        }()) { _ = await server.process.signal(SIGKILL) }
    }

    private func expectSuccess(_ device: MarqueeProcess, _ arguments: [String]) async throws {
        let outcome = try await device.run(arguments)
        #expect(outcome.status == 0, "\(arguments): \(outcome.standardError)")
    }

}
