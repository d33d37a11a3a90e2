import Logging
import NIOConcurrencyHelpers
import PostgresNIO

/// How every query here reads its rows: all of them, handed over on the connection's event loop
/// as they arrive, with the next read always asked for.
///
/// PostgresNIO's row sequence (`query(…)` iterated, or its `collect()`) stops reading between the
/// rows it has handed to the consumer and the consumer's next demand. A connection that closes in
/// that pause (the server stopped, its backend ended) delivers its last bytes anyway, and
/// PostgresNIO 1.x traps on them (`RowStreamStateMachine.channelReadComplete`: "How can we
/// receive a body part, after a channelReadComplete, but no read has been forwarded yet"): the
/// whole process ended, where a lost connection is an error a caller can report. Rows taken as
/// they arrive leave no such pause, so the same loss is thrown here. A cancelled task stops taking
/// rows at the next one that arrives and throws `CancellationError` once PostgresNIO has let the
/// rest of the result go by (it does not ask the server to stop).
extension PostgresConnection {
    /// Every row of `query`.
    package func allRows(_ query: PostgresQuery, logger: Logger, file: String = #fileID, line: Int = #line) async throws -> [PostgresRow] {
        try await allRows(query, logger: logger, file: file, line: line) { $0 }
    }

    /// Every row of `query`, each made into a value by `transform` as it arrives.
    package func allRows<Row: Sendable>(
        _ query: PostgresQuery, logger: Logger, file: String = #fileID, line: Int = #line,
        _ transform: @escaping @Sendable (PostgresRow) throws -> Row
    ) async throws -> [Row] {
        let rows = NIOLockedValueBox<[Row]>([])
        let cancelled = NIOLockedValueBox(false)
        try await withTaskCancellationHandler {
            do {
                _ = try await self.query(query, logger: logger, file: file, line: line) { row in
                    if cancelled.withLockedValue({ $0 }) { throw CancellationError() }
                    let value = try transform(row)
                    rows.withLockedValue { $0.append(value) }
                }.get()
            } catch where cancelled.withLockedValue({ $0 }) {
                throw CancellationError()
            }
        } onCancel: {
            cancelled.withLockedValue { $0 = true }
        }
        return rows.withLockedValue { $0 }
    }
}

extension PostgresClient {
    /// Every row of `query`, on a connection of the pool (see ``PostgresConnection/allRows(_:logger:file:line:)``).
    package func allRows(_ query: PostgresQuery, logger: Logger, file: String = #fileID, line: Int = #line) async throws -> [PostgresRow] {
        try await withConnection { connection in
            try await connection.allRows(query, logger: logger, file: file, line: line)
        }
    }
}

extension Array where Element == PostgresRow {
    /// Each row's columns as `types`, in the rows' order.
    package func decode<each Column: PostgresDecodable>(_ types: (repeat each Column).Type, file: String = #fileID, line: Int = #line) throws -> [(repeat each Column)] {
        try map { row in try row.decode(types, file: file, line: line) }
    }
}
