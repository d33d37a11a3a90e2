import Foundation

/// The attempts the sign-in page limits (failed sign-ins, typed codes, sign-ups, page sessions
/// made), counted by key in a sliding window where every instance on the database sees them, so
/// that two instances allow no more tries than one (the sign-in page's throttle).
public protocol AttemptStorage: Sendable {
    /// Counts one attempt, named `id`, under every key of `limits`, in one atomic step, unless
    /// one of the keys already holds its limit of attempts made after `since`: then nothing is
    /// counted and the answer is the oldest of that key's attempts in the window (the attempt
    /// whose leaving makes room). Nil when the attempt was counted.
    func countAttempt(_ limits: [AttemptLimit], id: String, now: Date, since: Date) async throws(StorageError) -> Date?

    /// Takes back the attempt `id` under every key it was counted under (the password was right).
    func forgetAttempt(id: String) async throws(StorageError)

    /// Forgets the attempts made before `date`.
    func pruneAttempts(before date: Date) async throws(StorageError)
}

/// A key attempts are counted under (`address:192.0.2.7`, `account:alice`), and the most a window may hold.
public struct AttemptLimit: Sendable, Hashable {
    public var key: String
    public var limit: Int

    public init(key: String, limit: Int) {
        self.key = key
        self.limit = limit
    }
}
