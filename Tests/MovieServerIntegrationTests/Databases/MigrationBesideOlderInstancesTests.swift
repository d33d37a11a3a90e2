import Foundation
import MarqueeTestSupport
import MovieServer
import MovieServerDatabases
import MovieServerPostgres
import PostgresNIO
import ServerTestSupport
import Testing

extension ServerDatabaseTests {
    /// A PostgreSQL step that running instances of an older Marquee cannot follow
    /// (`server-v8-account-ids`) is applied only when none is connected.
    @Suite("A PostgreSQL migration beside running instances")
    struct MigrationBesideOlderInstancesTests {
        @Test("a step older instances cannot follow is refused, changing nothing, while a session of an older or unknown version is connected; instances that know it start together")
        func breakingStepWaitsForOlderInstances() async throws {
            let cluster = try PostgresCluster.required()
            let url = try await cluster.makeDatabase()
            guard case let .postgres(location) = try DatabaseLocation(parsing: url) else {
                Issue.record("not a PostgreSQL location: \(url)")
                return
            }
            try await PostgresStorage.migrate(location, through: "server-v7-feed", logger: quietLogger)
            try await cluster.withSession(on: url) { older in
                func stepsApplied() async throws -> Int {
                    try await older.allRows("SELECT count(*)::int FROM marquee_schema_migration", logger: quietLogger).decode(Int.self).first ?? 0
                }
                func refusal() async throws -> String? {
                    do {
                        let storage = try await DatabaseLocation.postgres(location).open(logger: quietLogger)
                        await storage.close()
                        return nil
                    } catch let StorageError.migrationFailed(step, reason) {
                        #expect(step == "server-v8-account-ids")
                        return reason
                    }
                }
                #expect(try await stepsApplied() == 8)
                let unnamed = try #require(try await refusal(), "migrated beside a session of no known version")
                #expect(unnamed.contains("1 other session is connected to the database (a session with no name from 127.0.0.1)"), "\(unnamed)")
                #expect(unnamed.contains("stop every older instance") && unnamed.contains("nothing was changed"))

                // Sessions are named for the steps their instance knows: 8 is through server-v7-feed.
                try await older.query("SET application_name = 'marquee schema 8'", logger: quietLogger)
                let older8 = try #require(try await refusal(), "migrated beside an instance that knows 8 steps")
                #expect(older8.contains("(marquee schema 8 from 127.0.0.1)"), "\(older8)")
                #expect(try await stepsApplied() == 8, "nothing was changed")

                try await older.query("SET application_name = 'marquee schema 9'", logger: quietLogger)
                async let first = DatabaseLocation.postgres(location).open(logger: quietLogger)
                async let second = DatabaseLocation.postgres(location).open(logger: quietLogger)
                let opened = try await [first, second]
                for storage in opened { await storage.close() }
                #expect(try await stepsApplied() > 9, "migrated beside an instance that knows the step, and beside each other")
            }
        }

        @Test("a database with no step yet is migrated whatever else is connected: nothing there can be in use by an older instance")
        func emptyDatabaseMigratesBesideOthers() async throws {
            let cluster = try PostgresCluster.required()
            let url = try await cluster.makeDatabase()
            try await cluster.withSession(on: url) { other in
                _ = try await other.query("SELECT 1", logger: quietLogger)
                let storage = try await DatabaseLocation(parsing: url).open(logger: quietLogger)
                await storage.close()
                let steps = try await other.allRows("SELECT count(*)::int FROM marquee_schema_migration", logger: quietLogger).decode(Int.self).first
                #expect(steps ?? 0 > 9)
            }
        }
    }
}
