import Foundation
import MovieServer

/// Where `marquee serve` takes its signing keys from, first found first: `--signing-keys FILE`,
/// `MARQUEE_SIGNING_KEYS` (entries `KEY-ID SECRET` separated by `;` or newlines),
/// `MARQUEE_SIGNING_KEY` (one secret), else a random key that lives as long as the process.
enum SigningKeySource {
    static func ring(file: String?, environment: [String: String]) throws -> SigningKeyRing {
        if let file { return try ring(fromFile: file) }
        if let entries = environment["MARQUEE_SIGNING_KEYS"], !entries.isEmpty {
            return try SigningKeyRing.parse(entries, source: "MARQUEE_SIGNING_KEYS")
        }
        if let secret = environment["MARQUEE_SIGNING_KEY"], !secret.isEmpty {
            return SigningKeyRing.single(secret: secret)
        }
        return .random()
    }

    /// Reads a key file, refusing one that other users may read: it holds secrets. The mode
    /// checked is the file's, not a link's: a mounted secret is often a link to the real file.
    private static func ring(fromFile path: String) throws -> SigningKeyRing {
        var status = stat()
        guard stat(path, &status) == 0 else {
            throw SigningKeyError.malformed(source: path, entry: 0, reason: "it cannot be read (\(String(cString: strerror(errno))))")
        }
        switch status.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: throw SigningKeyError.malformed(source: path, entry: 0, reason: "it is a folder, not a key file")
        default: throw SigningKeyError.malformed(source: path, entry: 0, reason: "it is not a regular file")
        }
        let permissions = Int(status.st_mode & 0o777)
        guard permissions & 0o077 == 0 else {
            throw SigningKeyError.malformed(
                source: path, entry: 0,
                reason: "other users may read it (mode \(String(permissions, radix: 8))); run 'chmod 600 \(path)'"
            )
        }
        guard let data = FileManager.default.contents(atPath: path), data.count <= 1_000_000, let text = String(data: data, encoding: .utf8) else {
            throw SigningKeyError.malformed(source: path, entry: 0, reason: "it is not a text file of keys")
        }
        return try SigningKeyRing.parse(text, source: path)
    }
}
