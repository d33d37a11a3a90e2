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
        /// PostgreSQL's refusal of a connection with `code` and `message`: an ErrorResponse, then it closes.
        static func refusal(code: String, message: String) -> InterceptingRelay.Answer {
            let fields = "SFATAL\0VFATAL\0C\(code)\0M\(message)\0\0"
            let length = 4 + fields.utf8.count
            let header = "E" + [24, 16, 8, 0].map { String(UnicodeScalar(UInt8((length >> $0) & 0xFF))) }.joined()
            return .respond(header + fields)
        }

        /// What PostgreSQL answers while it starts up.
        static let startingUp = refusal(code: "57P03", message: "the database system is starting up")

        /// A relay in front of a new database of the test cluster answering every connection with
        /// `answer`, and the location that reaches the database through it.
        static func relay(answering answer: InterceptingRelay.Answer) async throws -> (InterceptingRelay, PostgresLocation) {
            let cluster = try PostgresCluster.required()
            let relay = try await InterceptingRelay.start(to: cluster.port, intercepting: "")
            relay.answer = answer
            return (relay, try await relayedLocation(cluster, through: relay))
        }

        static func relayedLocation(_ cluster: PostgresCluster, through relay: InterceptingRelay) async throws -> PostgresLocation {
            let url = try await cluster.makeDatabase()
            let relayed = url.replacingOccurrences(of: ":\(cluster.port)/", with: ":\(relay.port)/") + "?sslmode=disable"
            guard case let .postgres(location) = try DatabaseLocation(parsing: relayed) else { throw CancellationError() }
            return location
        }

        @Test("a database starting up is asked again until it takes connections, and the server opens then, saying it waited")
        func waitsForTheDatabase() async throws {
            let (relay, location) = try await Self.relay(answering: Self.startingUp)
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
            let (relay, location) = try await Self.relay(answering: Self.startingUp)
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

        @Test("any other refusal (a wrong password) is said at once, on the first connection, without waiting")
        func otherRefusalsAtOnce() async throws {
            let (relay, location) = try await Self.relay(answering: Self.refusal(code: "28P01", message: "password authentication failed for user \"marquee\""))
            let started = ContinuousClock.now
            await #expect {
                try await PostgresStorage(location: location, connectTimeout: .seconds(10))
            } throws: { error in
                guard case let StorageError.unreachable(_, reason) = error else { return false }
                return reason.contains("password authentication failed")
            }
            #expect(relay.intercepted == 1)
            #expect(ContinuousClock.now - started < .seconds(5))
        }
    }
}
