import Crypto
import Foundation

/// One key that signs access tokens, named by the id written in each token's `kid` header.
public struct SigningKey: Sendable {
    public let id: String
    public let key: SymmetricKey

    public init(id: String, key: SymmetricKey) {
        self.id = id
        self.key = key
    }

    /// A key made from a secret text (its SHA-256), as operators write them in files and variables.
    public init(id: String, secret: String) {
        self.init(id: id, key: SymmetricKey(data: SHA256.hash(data: Data(secret.utf8))))
    }
}

/// The keys a server accepts access tokens from, oldest first. New tokens are signed with the
/// newest; a token signed with an older listed key stays valid until it expires, so keys rotate
/// without signing anyone out. A token whose `kid` names no listed key is refused.
public struct SigningKeyRing: Sendable {
    public let keys: [SigningKey]

    public init(_ keys: [SigningKey]) throws(SigningKeyError) {
        guard !keys.isEmpty else { throw .empty }
        var seen = Set<String>()
        for key in keys {
            guard Self.isValidID(key.id) else { throw .invalidID(key.id) }
            guard seen.insert(key.id).inserted else { throw .duplicateID(key.id) }
        }
        self.keys = keys
    }

    public var newest: SigningKey { keys[keys.count - 1] }

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
    /// with `#` are skipped; `;` also separates entries, for an environment variable. Secrets
    /// shorter than 32 characters are refused. Errors name the source and the entry only: a line
    /// with its columns swapped has the secret where the id should be.
    public static func parse(_ text: String, source: String) throws(SigningKeyError) -> SigningKeyRing {
        var keys: [SigningKey] = []
        let entries = text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == ";" }
        for (index, entry) in entries.enumerated() {
            let line = entry.trimmingCharacters(in: .whitespacesAndNewlines)
            if line.isEmpty || line.hasPrefix("#") { continue }
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
            keys.append(SigningKey(id: id, secret: secret))
        }
        guard !keys.isEmpty else { throw .malformed(source: source, entry: 0, reason: "it lists no key") }
        return try SigningKeyRing(keys)
    }

    public static let minimumSecretLength = 32

    private static func isValidID(_ id: String) -> Bool {
        (1...64).contains(id.count) && id.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) }
    }
}

/// Why signing keys could not be used.
public enum SigningKeyError: Error, Sendable, CustomStringConvertible {
    case empty
    case invalidID(String)
    case duplicateID(String)
    case malformed(source: String, entry: Int, reason: String)

    public var description: String {
        switch self {
        case .empty: "no signing key is given"
        case let .invalidID(id): "the key id '\(id)' must be 1 to 64 letters, digits, '-', '_' or '.'"
        case let .duplicateID(id): "the key id '\(id)' is listed twice"
        case let .malformed(source, entry, reason): entry > 0 ? "\(source), entry \(entry): \(reason)" : "\(source): \(reason)"
        }
    }
}
