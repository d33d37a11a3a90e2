import Crypto
import Foundation

/// One key that signs access tokens (and search cursors), named by the id written in each
/// token's `kid` header. An accept-only key signs nothing: what it signed is accepted, so that
/// every instance can learn a key before any signs with it.
public struct SigningKey: Sendable {
    public let id: String
    public let key: SymmetricKey
    /// Whether the key is only accepted, never used to sign (the first step of a rotation).
    public let acceptOnly: Bool

    public init(id: String, key: SymmetricKey, acceptOnly: Bool = false) {
        self.id = id
        self.key = key
        self.acceptOnly = acceptOnly
    }

    /// A key made from a secret text (its SHA-256), as operators write them in files and variables.
    public init(id: String, secret: String, acceptOnly: Bool = false) {
        self.init(id: id, key: SymmetricKey(data: SHA256.hash(data: Data(secret.utf8))), acceptOnly: acceptOnly)
    }
}

/// The keys a server accepts access tokens and search cursors from, oldest first. New ones are
/// signed with the newest key that is not accept-only; one signed with any listed key stays valid
/// (a token until it expires), so keys rotate without signing anyone out. One whose `kid` names
/// no listed key is refused.
///
/// Several instances rotate in two steps, so that none signs with a key another does not accept
/// yet: first every instance is restarted with the new key listed as accept-only, then every
/// instance is restarted with it as a signing key.
public struct SigningKeyRing: Sendable {
    public let keys: [SigningKey]
    /// The key new tokens and cursors are signed with: the newest that is not accept-only.
    public let newest: SigningKey

    public init(_ keys: [SigningKey]) throws(SigningKeyError) {
        guard !keys.isEmpty else { throw .empty }
        var seen = Set<String>()
        for key in keys {
            guard Self.isValidID(key.id) else { throw .invalidID(key.id) }
            guard seen.insert(key.id).inserted else { throw .duplicateID(key.id) }
        }
        guard let signer = keys.last(where: { !$0.acceptOnly }) else { throw .onlyAcceptOnly }
        self.keys = keys
        newest = signer
    }

    public func key(id: String) -> SigningKey? { keys.first { $0.id == id } }

    /// A ring of one random key, for a server whose tokens need not outlive it.
    public static func random() -> SigningKeyRing {
        let bytes = SymmetricKey(size: .bits128).withUnsafeBytes { Array($0) }
        let id = "random-" + bytes.prefix(6).map { String(format: "%02x", $0) }.joined()
        return try! SigningKeyRing([SigningKey(id: id, key: SymmetricKey(size: .bits256))])
    }

    /// A ring of one key made from `secret`, with an id derived from it, so that the same secret
    /// gives the same ring in every run and on every instance.
    public static func single(secret: String) -> SigningKeyRing {
        let key = SigningKey(id: "", secret: secret)
        let fingerprint = key.key.withUnsafeBytes { SHA256.hash(data: Data($0)) }.prefix(6).map { String(format: "%02x", $0) }.joined()
        return try! SigningKeyRing([SigningKey(id: "key-" + fingerprint, key: key.key)])
    }

    /// Parses lines of `KEY-ID SECRET`, oldest first, newest last; blank lines and lines starting
    /// with `#` are skipped; `;` also separates entries, for an environment variable. A line
    /// `accept KEY-ID SECRET` lists an accept-only key (so `accept` is no key's id). Secrets
    /// shorter than 32 characters are refused. Errors name the source and the entry only: a line
    /// with its columns swapped has the secret where the id should be.
    public static func parse(_ text: String, source: String) throws(SigningKeyError) -> SigningKeyRing {
        var keys: [SigningKey] = []
        let entries = text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == ";" }
        for (index, entry) in entries.enumerated() {
            var line = entry.trimmingCharacters(in: .whitespacesAndNewlines)
            if line.isEmpty || line.hasPrefix("#") { continue }
            let acceptOnly = line.split(maxSplits: 1, whereSeparator: \.isWhitespace).first.map(String.init) == Self.acceptOnlyWord
            if acceptOnly { line = String(line.dropFirst(Self.acceptOnlyWord.count)).trimmingCharacters(in: .whitespaces) }
            let parts = line.split(maxSplits: 1, whereSeparator: \.isWhitespace)
            guard parts.count == 2 else { throw .malformed(source: source, entry: index + 1, reason: "expected 'KEY-ID SECRET'") }
            let id = String(parts[0]), secret = parts[1].trimmingCharacters(in: .whitespaces)
            guard isValidID(id) else {
                throw .malformed(source: source, entry: index + 1, reason: "the key id must be 1 to 64 letters, digits, '-', '_' or '.' (is the line 'KEY-ID SECRET'?)")
            }
            guard secret.count >= minimumSecretLength else {
                throw .malformed(source: source, entry: index + 1, reason: "the secret is shorter than \(minimumSecretLength) characters")
            }
            guard !keys.contains(where: { $0.id == id }) else {
                throw .malformed(source: source, entry: index + 1, reason: "the key id is listed twice")
            }
            guard id != Self.acceptOnlyWord else {
                throw .malformed(source: source, entry: index + 1, reason: "'\(Self.acceptOnlyWord)' is no key id: write 'accept KEY-ID SECRET' for an accept-only key")
            }
            keys.append(SigningKey(id: id, secret: secret, acceptOnly: acceptOnly))
        }
        guard !keys.isEmpty else { throw .malformed(source: source, entry: 0, reason: "it lists no key") }
        guard keys.contains(where: { !$0.acceptOnly }) else {
            throw .malformed(source: source, entry: 0, reason: "every key is accept-only: at least one must sign (a line without 'accept')")
        }
        return try SigningKeyRing(keys)
    }

    /// The word that starts an accept-only key's line.
    public static let acceptOnlyWord = "accept"

    public static let minimumSecretLength = 32

    private static func isValidID(_ id: String) -> Bool {
        (1...64).contains(id.count) && id.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) }
    }
}

/// Why signing keys could not be used.
public enum SigningKeyError: Error, Sendable, Equatable, CustomStringConvertible {
    case empty
    case invalidID(String)
    case duplicateID(String)
    case malformed(source: String, entry: Int, reason: String)
    case onlyAcceptOnly

    public var description: String {
        switch self {
        case .empty: "no signing key is given"
        case .onlyAcceptOnly: "every signing key is accept-only: at least one must sign"
        case let .invalidID(id): "the key id '\(id)' must be 1 to 64 letters, digits, '-', '_' or '.'"
        case let .duplicateID(id): "the key id '\(id)' is listed twice"
        case let .malformed(source, entry, reason): entry > 0 ? "\(source), entry \(entry): \(reason)" : "\(source): \(reason)"
        }
    }
}
