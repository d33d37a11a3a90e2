import Logging
import NIOConcurrencyHelpers

/// Where a backend's one funnel to its database reports each failed operation: logged with its
/// reason (which clients never see) and counted by operation for `GET /metrics`
/// (`marquee_database_errors_total`).
///
/// An operation is named after the storage method that failed, in snake case (`movie`,
/// `top_movies`, `apply_watchlist`), so a new method is counted without a list to extend.
public final class StorageFailures: Sendable {
    private let logger: Logger
    private let counts = NIOLockedValueBox<[String: Int]>([:])

    public init(logger: Logger) {
        self.logger = logger
    }

    /// Logs and counts a failure of `method` (a `#function`, such as `movie(id:)`).
    public func record(_ error: StorageError, in method: String) {
        let operation = Self.operationName(method)
        counts.withLockedValue { $0[operation, default: 0] += 1 }
        logger.error("database \(operation) failed: \(error)")
    }

    /// How many operations failed, by operation.
    public var byOperation: [String: Int] {
        counts.withLockedValue { $0 }
    }

    /// `topMovies(_:year:limit:)` as `top_movies`.
    package static func operationName(_ method: String) -> String {
        var name = ""
        for character in method.prefix(while: { $0 != "(" }) {
            if character.isUppercase {
                name += "_" + character.lowercased()
            } else {
                name.append(character)
            }
        }
        return name
    }
}
