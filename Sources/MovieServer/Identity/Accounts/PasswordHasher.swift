import Foundation
import HummingbirdBcrypt
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// Hashes and checks passwords with bcrypt, on threads of its own, a bounded number at a time.
///
/// bcrypt is slow on purpose (cost 12: some 2¹² rounds of its key schedule, about a quarter of a
/// second on one core here, the cost OWASP and most frameworks start from); run on the event loop
/// or the cooperative pool it would stall every request. Here it runs on ``threadCount`` threads
/// of the process's own (one fewer than its cores), leaving a core to the movie paths, and at
/// most ``maximumWaiting`` checks wait for one: a flood of sign-ins beyond that is told to come back
/// (``Busy``) instead of queueing without end.
public final class PasswordHasher: Sendable {
    /// The cost of new hashes unless configured otherwise.
    public static let defaultCost: UInt8 = 12
    /// How many checks may wait for a thread, unless told otherwise.
    public static let defaultMaximumWaiting = 64
    /// The threads every hasher of the process shares, started when first needed.
    public static let threadCount = max(1, System.coreCount - 1)
    private static let threads: NIOThreadPool = {
        let pool = NIOThreadPool(numberOfThreads: threadCount)
        pool.start()
        return pool
    }()

    /// Thrown when ``maximumWaiting`` checks are already waiting.
    public struct Busy: Error {}

    public let cost: UInt8
    /// How many checks may wait for a thread; one more is ``Busy``.
    public let maximumWaiting: Int
    private let waiting = NIOLockedValueBox(0)
    /// Hashes of no one's password by cost, checked when the account does not exist and to make a
    /// cheaper stored hash's check as long as one at ``cost``. Made at the first use of a cost, on
    /// the hashing threads.
    private let decoys = NIOLockedValueBox<[UInt8: String]>([:])
    /// The bcrypt work done so far, in rounds of its key schedule (2^cost a check): what the tests
    /// count to see that every check costs the same.
    private let work = NIOLockedValueBox<UInt64>(0)

    public init(cost: UInt8 = PasswordHasher.defaultCost, maximumWaiting: Int = PasswordHasher.defaultMaximumWaiting) {
        self.cost = cost
        self.maximumWaiting = maximumWaiting
    }

    /// The rounds of bcrypt's key schedule this hasher has run.
    var roundsRun: UInt64 { work.withLockedValue { $0 } }

    /// The cost a bcrypt hash (`$2b$12$…`) was made with; nil for text that is no such hash.
    public static func cost(of hash: String) -> UInt8? {
        let parts = hash.split(separator: "$", omittingEmptySubsequences: false)
        guard parts.count >= 4, parts[0].isEmpty, parts[2].count == 2 else { return nil }
        return UInt8(parts[2])
    }

    /// The bcrypt hash of `password`, with a new salt.
    public func hash(_ password: String) async throws -> String {
        let cost = cost
        return try await run { Bcrypt.hash(password, cost: cost) }
    }

    /// Whether `password` matches `hash`. Every check costs at least as much as one at ``cost``,
    /// whatever the stored hash's: with no hash (no such account) a check of a stand-in at
    /// ``cost``; for a hash of a lower cost (stored before the cost was raised), the check and as
    /// many stand-in checks of that cost again as make up the difference. So an unknown name takes
    /// as long as a real one, and nothing a caller does moves that time (a hash of a higher cost,
    /// stored before the cost was lowered, takes longer until its next sign-in makes it again).
    public func verify(_ password: String, hash: String?) async throws -> Bool {
        let configured = cost, stored = hash.flatMap(Self.cost(of:))
        return try await run { [decoys, work] in
            func check(_ hash: String, cost: UInt8) -> Bool {
                work.withLockedValue { $0 += 1 << UInt64(min(cost, 31)) }
                return Bcrypt.verify(password, hash: hash)
            }
            func decoy(_ cost: UInt8) -> String {
                decoys.withLockedValue { decoys in
                    if let made = decoys[cost] { return made }
                    let made = Bcrypt.hash(UUID().uuidString, cost: cost)
                    decoys[cost] = made
                    return made
                }
            }
            guard let hash, let stored else {
                _ = check(decoy(configured), cost: configured)
                return false
            }
            let matches = check(hash, cost: stored)
            if stored < configured {
                let standIn = decoy(stored)
                for _ in 1..<(1 << Int(configured - stored)) { _ = check(standIn, cost: stored) }
            }
            return matches
        }
    }

    private func run<T: Sendable>(_ work: @escaping @Sendable () -> T) async throws -> T {
        let admitted = waiting.withLockedValue { count in
            guard count < maximumWaiting + Self.threadCount else { return false }
            count += 1
            return true
        }
        guard admitted else { throw Busy() }
        defer { waiting.withLockedValue { $0 -= 1 } }
        return try await Self.threads.runIfActive(work)
    }
}
