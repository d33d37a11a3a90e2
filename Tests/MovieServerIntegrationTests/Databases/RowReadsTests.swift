import MarqueeTestSupport
import MovieServerPostgres
import NIOConcurrencyHelpers
import PostgresNIO
import ServerTestSupport
import Testing

extension ServerDatabaseTests {
    /// A connection lost in the middle of a long result is an error for the caller; PostgresNIO's
    /// row sequence trapped there (the whole server or import ended).
    @Suite("Rows read from PostgreSQL")
    struct RowReadsTests {
        @Test("a session ended while a long result streams in: the read throws, the process lives on, and the next read on another connection answers", arguments: 1...4)
        func sessionEndedMidResult(round: Int) async throws {
            let cluster = try PostgresCluster.required()
            let database = try await cluster.makeDatabase()
            let reached = AsyncStream<Void>.makeStream()
            let seen = NIOLockedValueBox(0)
            let result = try await cluster.withSession(on: database) { connection in
                let backend = try await connection.allRows("SELECT pg_backend_pid()", logger: quietLogger).decode(Int32.self).first ?? 0 as Int32
                async let read = Result(catching: { () async throws -> [Int] in
                    try await connection.allRows(
                        "SELECT n, repeat('x', 120) FROM generate_series(1, 3000000) AS n", logger: quietLogger
                    ) { row in
                        let (number, _) = try row.decode((Int, String).self)
                        if seen.withLockedValue({ $0 += 1; return $0 }) == 1000 * round { reached.continuation.yield() }
                        return number
                    }
                })
                var arrivals = reached.stream.makeAsyncIterator()
                _ = await arrivals.next()
                let ended = try await cluster.withSession(on: database) { other in
                    try await other.allRows("SELECT pg_terminate_backend(\(backend))", logger: quietLogger).decode(Bool.self).first
                }
                #expect(ended == true)
                return await read
            }
            #expect(throws: (any Error).self, "the rows after the session ended never came") { try result.get() }
            #expect(seen.withLockedValue { $0 } < 3_000_000)
            let count = try await cluster.withSession(on: database) { connection in
                try await connection.allRows("SELECT count(*) FROM generate_series(1, 5000)", logger: quietLogger).decode(Int.self).first
            }
            #expect(count == 5000)
        }
    }
}

extension ServerDatabaseTests.RowReadsTests {
    @Test("a read whose task is cancelled while a long result streams in stops taking rows and throws; the connection answers the next query")
    func cancelledMidResult() async throws {
        let cluster = try PostgresCluster.required()
        let database = try await cluster.makeDatabase()
        let seen = NIOLockedValueBox(0)
        try await cluster.withSession(on: database) { connection in
            let reached = AsyncStream<Void>.makeStream()
            let read = Task {
                try await connection.allRows("SELECT n, repeat('x', 120) FROM generate_series(1, 1000000) AS n", logger: quietLogger) { row in
                    let (number, _) = try row.decode((Int, String).self)
                    if seen.withLockedValue({ $0 += 1; return $0 }) == 1000 { reached.continuation.yield() }
                    return number
                }
            }
            var arrivals = reached.stream.makeAsyncIterator()
            _ = await arrivals.next()
            read.cancel()
            await #expect(throws: CancellationError.self) { try await read.value }
            #expect(seen.withLockedValue { $0 } < 1_000_000, "it stopped taking rows")
            let answer = try await connection.allRows("SELECT 41 + 1", logger: quietLogger).decode(Int.self).first
            #expect(answer == 42)
        }
    }
}

extension Result where Failure == any Error {
    fileprivate init(catching body: () async throws -> Success) async {
        do {
            self = .success(try await body())
        } catch {
            self = .failure(error)
        }
    }
}
