import Foundation
import NIOConcurrencyHelpers

/// How many failed sign-ins an account, and an address, may have before they must wait: a
/// window of ``window`` seconds holds at most `accountLimit` failures for one account and
/// `addressLimit` from one address (``AuthConfiguration/signInLimit``); past it, the answer is
/// 429 with the seconds to wait.
///
/// Per instance and in memory (a restart forgets it), bounded to ``capacity`` keys. An account's
/// own limit is the larger, so that an attacker from one address is stopped by the address
/// limit first; one spread over many addresses can make the account's owner wait, never more
/// than a window, and never learn the password faster than the limit allows.
final class SignInThrottle: Sendable {
    static let window: TimeInterval = 600
    static let capacity = 100_000
    /// How long a refused attempt (429, or 503 while the hasher is full) waits before its answer.
    static let tarpit: Duration = .seconds(1)

    let accountLimit: Int
    let addressLimit: Int

    /// `addressLimit` failures from an address in ``window`` (10 by default), and twice as many
    /// for an account, from any addresses.
    convenience init(addressLimit: Int = 10) {
        self.init(accountLimit: addressLimit * 2, addressLimit: addressLimit)
    }

    init(accountLimit: Int, addressLimit: Int) {
        self.accountLimit = accountLimit
        self.addressLimit = addressLimit
    }

    private let failures = NIOLockedValueBox<[String: [Date]]>([:])

    /// Seconds to wait before trying again, or nil when the attempt may go ahead.
    func wait(account: String, address: String, now: Date) -> Int? {
        wait([("account:" + account, accountLimit), ("address:" + address, addressLimit)], now: now)
    }

    /// Seconds to wait for a limit on `address` alone (sign-ups), or nil.
    func wait(address: String, now: Date) -> Int? {
        wait([(address, addressLimit)], now: now)
    }

    func recordFailure(account: String, address: String, now: Date) {
        record(["account:" + account, "address:" + address], now: now)
    }

    /// Counts an attempt limited by `address` alone.
    func recordFailure(address: String, now: Date) {
        record([address], now: now)
    }

    /// Takes back the last failure counted for `account` and `address` (the password was right).
    func forgive(account: String, address: String) {
        failures.withLockedValue { failures in
            for key in ["account:" + account, "address:" + address] where failures[key]?.isEmpty == false {
                failures[key]?.removeLast()
            }
        }
    }

    /// The longest wait any of `limits` (a key and its most failures in a window) asks for.
    private func wait(_ limits: [(key: String, limit: Int)], now: Date) -> Int? {
        failures.withLockedValue { failures in
            let waits = limits.compactMap { key, limit -> TimeInterval? in
                let recent = (failures[key] ?? []).filter { now.timeIntervalSince($0) < Self.window }
                guard recent.count >= limit, let oldest = recent.first else { return nil }
                return Self.window - now.timeIntervalSince(oldest)
            }
            return waits.max().map { max(1, Int($0.rounded(.up))) }
        }
    }

    private func record(_ keys: [String], now: Date) {
        failures.withLockedValue { failures in
            if failures.count >= Self.capacity {
                failures = failures.filter { $0.value.last.map { now.timeIntervalSince($0) < Self.window } ?? false }
                if failures.count >= Self.capacity { failures.removeAll() }
            }
            for key in keys {
                var recent = (failures[key] ?? []).filter { now.timeIntervalSince($0) < Self.window }
                recent.append(now)
                failures[key] = recent
            }
        }
    }
}
