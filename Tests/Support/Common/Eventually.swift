import Foundation

/// Polls `condition` every 50 ms until it holds or `limit` passes; whether it held.
public func eventually(limit: Duration = .seconds(30), _ condition: () async throws -> Bool) async throws -> Bool {
    let deadline = ContinuousClock.now + limit
    while ContinuousClock.now < deadline {
        if try await condition() { return true }
        try await Task.sleep(for: .milliseconds(50))
    }
    return try await condition()
}
