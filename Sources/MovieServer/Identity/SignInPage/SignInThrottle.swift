import Crypto
import Foundation

/// How many attempts the sign-in page allows before it asks to wait: in a window of ``window``
/// seconds, `addressLimit` failed sign-ins from one address (``AuthConfiguration/signInLimit``)
/// and twice as many for one account from any addresses; as many sign-ups, and as many wrong
/// codes, from one address; ``sessionLimit`` page sessions started from one address. Past a
/// limit, the answer is 429 with the seconds to wait.
///
/// The attempts are counted in the server's storage (``AttemptStorage``), so every instance on
/// a database sees the same counts: two instances allow no more tries than one. An address is the
/// client's (``TrustedProxies``), an IPv6 address counted by its /64. An account's own limit is
/// the larger, so that an attacker from one address is stopped by the address limit first; one
/// spread over many addresses can make the account's owner wait, never more than a window, and
/// never learn the password faster than the limit allows.
final class SignInThrottle: Sendable {
    static let window: TimeInterval = 600
    /// How long a refused attempt (429, or 503 while the hasher is full) waits before its answer.
    static let tarpit: Duration = .seconds(1)
    /// One attempt in this many also forgets the attempts past the window.
    static let pruneEvery = 256
    /// The most page sessions one address starts in a window (each is a signed-in person's).
    static let sessionLimit = 30

    /// What came of an attempt.
    enum Outcome: Sendable, Equatable {
        /// It may go ahead; it is counted under this id (``forgive(_:)`` takes it back).
        case counted(id: String)
        /// A limit is reached: wait this many seconds.
        case wait(seconds: Int)
    }

    let accountLimit: Int
    let addressLimit: Int
    private let storage: any AttemptStorage

    convenience init(storage: any AttemptStorage, addressLimit: Int = 10) {
        self.init(storage: storage, accountLimit: addressLimit * 2, addressLimit: addressLimit)
    }

    init(storage: any AttemptStorage, accountLimit: Int, addressLimit: Int) {
        self.storage = storage
        self.accountLimit = accountLimit
        self.addressLimit = addressLimit
    }

    /// A sign-in with `name` from `address`: counted as a failure until ``forgive(_:)``.
    func signIn(account name: String, address: String, now: Date) async throws(ErrorAnswer) -> Outcome {
        try await attempt([
            AttemptLimit(key: "account:" + Self.keyPart(name.lowercased()), limit: accountLimit),
            AttemptLimit(key: "address:" + address, limit: addressLimit),
        ], now: now)
    }

    func signUp(address: String, now: Date) async throws(ErrorAnswer) -> Outcome {
        try await attempt([AttemptLimit(key: "sign-up:" + address, limit: addressLimit)], now: now)
    }

    /// A code typed by the person signed in to `accountID`, from `address`.
    func code(accountID: String, address: String, now: Date) async throws(ErrorAnswer) -> Outcome {
        try await attempt([
            AttemptLimit(key: "code-account:" + accountID, limit: addressLimit),
            AttemptLimit(key: "code-address:" + address, limit: addressLimit),
        ], now: now)
    }

    /// A page session started from `address` (a person signed in).
    func session(address: String, now: Date) async throws(ErrorAnswer) -> Outcome {
        try await attempt([AttemptLimit(key: "session:" + address, limit: Self.sessionLimit)], now: now)
    }

    /// Takes back an attempt that turned out right (the password was).
    func forgive(_ id: String) async throws(ErrorAnswer) {
        try await answering { () async throws(StorageError) in try await storage.forgetAttempt(id: id) }
    }

    private func attempt(_ limits: [AttemptLimit], now: Date) async throws(ErrorAnswer) -> Outcome {
        let id = UUID().uuidString
        let since = now.addingTimeInterval(-Self.window)
        return try await answering { () async throws(StorageError) -> Outcome in
            if Int.random(in: 0..<Self.pruneEvery) == 0 { try await storage.pruneAttempts(before: since) }
            guard let oldest = try await storage.countAttempt(limits, id: id, now: now, since: since) else { return .counted(id: id) }
            return .wait(seconds: max(1, Int((oldest.timeIntervalSince(now) + Self.window).rounded(.up))))
        }
    }

    /// A typed name as part of a key: as typed up to 64 bytes, a digest past that, so that a long
    /// name (or one character of a thousand combining marks) costs a key no more than a short one.
    static func keyPart(_ name: String) -> String {
        guard name.utf8.count > 64 else { return name }
        return "sha256:" + SHA256.hash(data: Data(name.utf8)).map { String(format: "%02x", $0) }.joined()
    }
}
