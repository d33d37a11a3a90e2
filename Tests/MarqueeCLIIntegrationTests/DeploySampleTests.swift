import Foundation
import MarqueeTestSupport
import MovieServer
import NetworkTestSupport
import ServerTestSupport
import Testing

/// `deploy/nginx.conf` as shipped (its ports moved to free ones), in front of two `marquee serve`
/// instances that share one PostgreSQL database and one key file.
@Suite("The deploy/ sample", .postgresCluster)
struct DeploySampleTests {
    let marquee = MarqueeProcess()
    static let repository = repositoryRoot

    @Test("two instances behind deploy/nginx.conf with gzip: tokens and lists through either, and revalidation is a 304 though nginx weakens the tag")
    func twoInstancesBehindNginx() async throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/sbin/nginx") else {
            Issue.record("nginx is not installed: run scripts/install-system-deps")
            return
        }
        let folder = TestFolders.temporary.appendingPathComponent("marquee-deploy-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("tmp"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try await PostgresCluster.required().makeDatabase()
        let catalog = folder.appendingPathComponent("catalog.json")
        try JSONEncoder().encode(try Catalog.reference().movies).write(to: catalog)
        let imported = try await marquee.run(["catalog", "import", catalog.path, "--database", database])
        #expect(imported.status == 0, "\(imported.standardError)")
        let keys = folder.appendingPathComponent("signing-keys")
        try Data("k1 \(String(repeating: "d", count: 40))\n".utf8).write(to: keys)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: keys.path)

        let first = try await serve(database, keys: keys)
        let second = try await serve(database, keys: keys)
        try await finally(try await {
            let configuration = try String(contentsOf: Self.repository.appendingPathComponent("deploy/nginx.conf"), encoding: .utf8)
                .replacingOccurrences(of: "127.0.0.1:8080", with: "127.0.0.1:\(try PostgresCluster.freeLoopbackPort())")
                .replacingOccurrences(of: "127.0.0.1:8081", with: "127.0.0.1:\(first.port)")
                .replacingOccurrences(of: "127.0.0.1:8082", with: "127.0.0.1:\(second.port)")
            let conf = folder.appendingPathComponent("nginx.conf")
            try configuration.write(to: conf, atomically: true, encoding: .utf8)
            let listen = try #require(configuration.firstMatch(of: /listen 127\.0\.0\.1:(\d+)/).flatMap { Int($0.1) })
            let nginx = try ChildProcess(executable: URL(fileURLWithPath: "/usr/sbin/nginx"), arguments: ["-p", folder.path, "-c", conf.path])
            try await finally(try await throughNginx(port: listen, first: first.port, second: second.port)) { _ = await nginx.signal(SIGQUIT) }
        }()) {
            _ = await first.process.signal(SIGTERM)
            _ = await second.process.signal(SIGTERM)
        }
    }

    private func throughNginx(port: Int, first: Int, second: Int) async throws {
        #expect(try await eventually { (try? await LoopbackHTTP.send(port: port, "/health/live").status) == 200 }, "nginx forwards to the instances")
        var token: String?
        for _ in 0..<4 {
            let answer = try await LoopbackHTTP.send(
                port: port, "/api/auth/token", method: "POST", headers: [("Content-Type", "application/x-www-form-urlencoded")],
                body: "grant_type=client_credentials&client_id=marquee-dev&client_secret=marquee-dev-secret"
            )
            #expect(answer.status == 200)
            token = answer.string("access_token")
        }
        let bearer = ("Authorization", "Bearer \(try #require(token))")
        let path = "/api/movies/topGrossing/2016"
        let compressed = try await LoopbackHTTP.send(port: port, path, headers: [bearer, ("Accept-Encoding", "gzip")])
        #expect(compressed.status == 200)
        #expect(compressed.header("content-encoding") == "gzip")
        let weak = try #require(compressed.header("etag"))
        #expect(weak.hasPrefix("W/\""), "nginx weakens the tag of what it compresses: \(weak)")
        for _ in 0..<4 {
            let revalidated = try await LoopbackHTTP.send(port: port, path, headers: [bearer, ("Accept-Encoding", "gzip"), ("If-None-Match", weak)])
            #expect(revalidated.status == 304, "either instance compares the weak tag weakly")
        }

        let home = TestFolders.temporary.appendingPathComponent("marquee-deploy-client-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        let store = home.appendingPathComponent("movies.sqlite").path
        let api = "http://127.0.0.1:\(port)/api/"
        let fetched = try await marquee.run(["top-grossing", "--env", api, "--store", store])
        #expect(fetched.status == 0, "\(fetched.standardError)")
        let again = try await marquee.run(["top-grossing", "--env", api, "--store", store, "--policy", "networkOnly", "--json"])
        #expect(again.status == 0, "\(again.standardError)")
        let answer = try JSONSerialization.jsonObject(with: Data(again.standardOutput.utf8)) as? [String: Any]
        #expect(answer?["revalidated"] as? Bool == true, "the client's second run is a 304: \(again.standardOutput.prefix(200))")

        for instance in [first, second] {
            let metrics = PrometheusText(try await LoopbackHTTP.send(port: instance, "/metrics").body)
            #expect((metrics.value("marquee_token_grants_total", [:]) ?? 0) >= 1, "instance \(instance) granted tokens")
        }
        #expect(try await LoopbackHTTP.send(port: port, "/metrics").status == 404, "metrics are not served on the public address")
    }

    private struct Instance {
        let process: ChildProcess
        let port: Int
    }

    private func serve(_ database: String, keys: URL) async throws -> Instance {
        let process = try marquee.launch(["serve", "--port", "0", "--database", database, "--signing-keys", keys.path, "--log-level", "notice"])
        let line = try #require(await process.nextErrorLine(containing: "Marquee movie API listening on"), "\(process.lastOutput)")
        return Instance(process: process, port: try #require(URL(string: String(line.split(separator: " ").last ?? ""))?.port))
    }
}
