import Foundation
import GRDB
import MarqueeTestSupport
import MovieServer
import MovieServerDatabases
import ServerTestSupport
import Testing

/// One deadline per request, whatever it queries and however long others wait before it: a
/// request that needs the database is answered (a 503 at worst) within the query timeout.
@Suite("Bounded waits for the database")
struct BoundedWaitTests {
    // Long enough that a loaded machine's overhead stays far from a second timeout.
    static let timeout: Duration = .seconds(6)

    @Test("PostgreSQL stopped: an uncached top list (a version check, then the list) is a 503 after one query timeout, not two")
    func oneDeadlinePerRequest() async throws {
        let cluster = try await PostgresCluster.start()
        try await finally(try await stopDatabase(cluster)) { await cluster.stop() }
    }

    private func stopDatabase(_ cluster: PostgresCluster) async throws {
        let location = try DatabaseLocation(parsing: try await cluster.makeDatabase())
        let storage = try await location.open(logger: quietLogger, queryTimeout: Self.timeout)
        _ = try await storage.importMovies(try Catalog.reference().movies, batchSize: 100) { _ in }
        try await finally(try await withServerClient(storage: storage, queryTimeout: Self.timeout) { client in
            #expect(try await client.get("/api/movies/topGrossing/2016").status == 200)
            try await cluster.halt(mode: "immediate")
            let started = ContinuousClock.now
            let answer = try await client.get("/api/movies/topRated/2015")
            let waited = ContinuousClock.now - started
            #expect(answer.status == 503)
            #expect(answer.json?["error"] as? String == "temporarily_unavailable")
            #expect(waited >= Self.timeout - .milliseconds(100), "it waited for the database: \(waited)")
            #expect(waited < Self.timeout * 2 - .milliseconds(500), "one deadline, not one per query: \(waited)")
        }) { await storage.close() }
    }

    @Test("SQLite locked by another process: three token requests at once each get their 503 within the query timeout, then succeed once the lock goes")
    func queuedWritesShareNoWait() async throws {
        let file = TestFolders.temporary.appendingPathComponent("marquee-locked-\(UUID().uuidString).sqlite")
        defer { try? FileManager.default.removeItem(at: file) }
        let storage = try await DatabaseLocation.sqlite(path: file.path).open(logger: quietLogger, queryTimeout: Self.timeout)
        _ = try await storage.importMovies(try Catalog.reference().movies, batchSize: 100) { _ in }
        var holding = Configuration()
        holding.allowsUnsafeTransactions = true
        let holder = try DatabaseQueue(path: file.path, configuration: holding)
        try await finally(try await withServerClient(auth: AuthConfiguration(), storage: storage, queryTimeout: Self.timeout) { client in
            try await holder.writeWithoutTransaction { try $0.execute(sql: "BEGIN IMMEDIATE") }
            let waits = try await withThrowingTaskGroup(of: (Int, Duration).self) { group in
                for _ in 0..<3 {
                    group.addTask {
                        let started = ContinuousClock.now
                        let answer = try await client.get("/api/auth/token", method: .POST, headers: TokenForms.form, body: TokenForms.clientGrant)
                        return (answer.status, ContinuousClock.now - started)
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(waits.map(\.0) == [503, 503, 503])
            let times = waits.map(\.1)
            #expect(times.allSatisfy { $0 >= Self.timeout - .milliseconds(100) }, "each waited for the lock: \(times)")
            #expect(times.max()! - times.min()! < Self.timeout, "each wait is the request's own, not its place in the queue (which would space them a timeout apart): \(times)")
            try await holder.writeWithoutTransaction { try $0.execute(sql: "ROLLBACK") }
            let after = try await client.get("/api/auth/token", method: .POST, headers: TokenForms.form, body: TokenForms.clientGrant)
            #expect(after.status == 200)
        }) {
            try? holder.close()
            await storage.close()
        }
    }
}
