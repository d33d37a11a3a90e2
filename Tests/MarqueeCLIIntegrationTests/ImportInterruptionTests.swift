import Foundation
import MarqueeTestSupport
import PostgresNIO
import ServerTestSupport
import Testing

/// `catalog import` into PostgreSQL when the server stops in the middle: the import ends within
/// its query timeout with one line, non-zero, and the database keeps nothing of it.
@Suite("An import whose database stops")
struct ImportInterruptionTests {
    let marquee = MarqueeProcess()

    @Test("PostgreSQL stopped mid-import (fast and immediate): the import ends within --query-timeout, says it lost the connection, and nothing is kept", arguments: ["fast", "immediate"])
    func endsWhenTheDatabaseStops(mode: String) async throws {
        let cluster = try await PostgresCluster.start()
        try await finally(try await interrupt(cluster, mode: mode)) { await cluster.stop() }
    }

    private func interrupt(_ cluster: PostgresCluster, mode: String) async throws {
        let database = try await cluster.makeDatabase()
        let catalog = TestFolders.temporary.appendingPathComponent("marquee-interrupted-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: catalog) }
        let generated = try await marquee.run(["generate-catalog", "--movies", "100000", "--output", catalog.path])
        #expect(generated.status == 0, "\(generated.standardError)")

        let importer = try marquee.launch(["catalog", "import", catalog.path, "--database", database, "--batch-size", "500", "--query-timeout", "3"])
        let started = try await Self.waitForOpenTransaction(on: database, in: cluster)
        try #require(started, "the import opened its transaction: \(importer.lastOutput)")
        try await cluster.halt(mode: mode)
        let stopped = ContinuousClock.now
        let status = await importer.waitForExit(within: .seconds(60))
        let waited = ContinuousClock.now - stopped
        #expect(status != 0)
        #expect(waited < .seconds(3 + 25), "ended within the query timeout (plus the process's exit), not after the 60 s wait: \(waited)")
        let error = await importer.nextErrorLine(containing: "marquee:")
        #expect(error?.contains("lost the database connection to PostgreSQL database") == true, "\(error ?? importer.lastOutput)")
        #expect(error?.contains("nothing was imported") == true, "\(error ?? "")")

        try await cluster.resume()
        let kept = try await cluster.withSession(on: database) { session in
            try await session.query("SELECT count(*) FROM movie", logger: quietLogger).collect().first?.decode(Int.self)
        }
        #expect(kept == 0, "the transaction was rolled back")
    }

    /// Waits (at most a minute) until a session on `database` other than this one is inside a
    /// transaction that writes movies: the import, past the migration.
    private static func waitForOpenTransaction(on database: String, in cluster: PostgresCluster) async throws -> Bool {
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            let open = try await cluster.withSession(on: database) { session in
                try await session.query(
                    "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND xact_start IS NOT NULL AND query LIKE '%INSERT INTO movie%'",
                    logger: quietLogger
                ).collect().first?.decode(Int.self) ?? 0
            }
            if open > 0 { return true }
            try await Task.sleep(for: .milliseconds(50))
        }
        return false
    }
}
