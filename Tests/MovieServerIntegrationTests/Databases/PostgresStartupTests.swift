import Foundation
import MarqueeTestSupport
import MovieServer
import MovieServerDatabases
import MovieServerPostgres
import NetworkTestSupport
import ServerTestSupport
import Testing

extension ServerDatabaseTests {
    /// A server started beside its database meets PostgreSQL refusing connections while it starts
    /// up (SQLSTATE 57P03): it waits, within its time to connect, instead of stopping at once.
    @Suite("PostgreSQL starting up")
    struct PostgresStartupTests {
        /// PostgreSQL's answer to a connection while it starts up: an ErrorResponse, then it closes.
        static let startingUp: InterceptingRelay.Answer = {
            let fields = "SFATAL\0VFATAL\0C57P03\0Mthe database system is starting up\0\0"
            let length = 4 + fields.utf8.count
            let header = "E" + [24, 16, 8, 0].map { String(UnicodeScalar(UInt8((length >> $0) & 0xFF))) }.joined()
            return .respond(header + fields)
        }()

        static func relayedLocation(_ cluster: PostgresCluster, through relay: InterceptingRelay) async throws -> PostgresLocation {
            let url = try await cluster.makeDatabase()
            let relayed = url.replacingOccurrences(of: ":\(cluster.port)/", with: ":\(relay.port)/") + "?sslmode=disable"
            guard case let .postgres(location) = try DatabaseLocation(parsing: relayed) else { throw CancellationError() }
            return location
        }

        @Test("a database starting up is asked again until it takes connections, and the server opens then, saying it waited")
        func waitsForTheDatabase() async throws {
            let cluster = try PostgresCluster.required()
            let relay = try await InterceptingRelay.start(to: cluster.port, intercepting: "")
            relay.answer = Self.startingUp
            let location = try await Self.relayedLocation(cluster, through: relay)
            let capture = LogCapture()
            let opening = Task { try await PostgresStorage(location: location, connectTimeout: .seconds(30), logger: capture.logger) }
            #expect(try await eventually { relay.intercepted >= 3 }, "asked again while starting up")
            relay.answer = nil
            let storage = try await opening.value
            await storage.close()
            #expect(capture.messages.contains { $0.contains("the database is starting up; waiting for it") })
            #expect(capture.messages.contains { $0.contains("the database is ready") })
        }

        @Test("one still starting up when the time to connect is over is refused with PostgreSQL's reason")
        func refusedAfterTheWait() async throws {
            let cluster = try PostgresCluster.required()
            let relay = try await InterceptingRelay.start(to: cluster.port, intercepting: "")
            relay.answer = Self.startingUp
            let location = try await Self.relayedLocation(cluster, through: relay)
            let started = ContinuousClock.now
            await #expect {
                try await PostgresStorage(location: location, connectTimeout: .seconds(2))
            } throws: { error in
                guard case let StorageError.unreachable(_, reason) = error else { return false }
                return reason.contains("starting up")
            }
            #expect(ContinuousClock.now - started >= .seconds(1.5), "it waited")
            #expect(relay.intercepted >= 3)
        }
    }
}
