import Foundation
import MovieServer
import PostgresNIO

extension PostgresStorage {
    /// Listens on ``PostgresFeed/channel`` on a connection of its own, reconnecting a second
    /// after it is lost; `wake` is also called after each reconnection, for what was missed.
    public func onFeedNotification(_ wake: @escaping @Sendable () -> Void) -> Bool {
        let location = location, timeout = connectTimeout, logger = logger
        let description = location.description
        let task = Task {
            while !Task.isCancelled {
                do {
                    let configuration = try Self.connectionConfiguration(for: location, within: timeout, description: description)
                    let connection = try await PostgresConnection.connect(configuration: configuration, id: 1, logger: logger)
                    defer { Task { try? await connection.close() } }
                    try await connection.listen(on: PostgresFeed.channel) { notifications in
                        wake()
                        for try await _ in notifications { wake() }
                    }
                } catch {
                    if Task.isCancelled { return }
                    logger.warning("the event feed lost its PostgreSQL listener, reconnecting in a second: \(PostgresErrorText.describe(error))")
                }
                try? await Task.sleep(for: .seconds(1))
            }
        }
        feedListener.withLockedValue { previous in
            previous?.cancel()
            previous = task
        }
        return true
    }
}
