import FileLocking
import Foundation
import MovieContract
import Movies
import TextFormatting

/// The credentials file: one credential per API and holder (``CredentialHolder/key(for:)``), and
/// each API's default account, as JSON, readable by its owner only.
///
/// Every change holds a lock (`<file>.lock`), reads the file as it is now, changes one entry and
/// replaces the file atomically (a temporary file renamed over it): processes that write at the
/// same moment keep each other's entries, and a crash never leaves half a file behind.
struct CredentialsFile: Sendable {
    struct Contents: Codable {
        var version = 1
        var credentials: [String: Credential] = [:]
        /// Per API (by ``APIIdentity/key``), the account commands use when none is named.
        var defaultAccounts: [String: String]?
    }

    let url: URL

    var lock: FileLock { FileLock(url: url.appendingPathExtension("lock")) }

    /// The file's contents; empty when there is no file yet.
    func read() throws(CredentialsFileError) -> Contents {
        guard FileManager.default.fileExists(atPath: url.path) else { return Contents() }
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw .unreadable(path: url.path, reason: FileErrorText.reason(error))
        }
        do {
            let contents = try Self.decoder.decode(Contents.self, from: data)
            guard contents.credentials.values.allSatisfy(\.isPlausible) else {
                throw CredentialsFileError.corrupt(path: url.path, reason: "a credential has dates out of range")
            }
            return contents
        } catch let error as CredentialsFileError {
            throw error
        } catch {
            throw .corrupt(path: url.path, reason: data.isEmpty ? "it is empty" : "it is not the expected JSON")
        }
    }

    /// Makes a file that others may read or write readable by its owner only (mode 0600), as
    /// every file this type writes is. Returns what was done, for a warning: `nil` when the file
    /// is missing or already private.
    func keepPrivate() -> String? {
        var status = stat()
        guard stat(url.path, &status) == 0, status.st_mode & 0o077 != 0 else { return nil }
        let mode = String(status.st_mode & 0o777, radix: 8)
        guard chmod(url.path, 0o600) == 0 else {
            return "the credentials file \(url.path) can be read by other users (mode \(mode)), and its mode cannot be changed (\(String(cString: strerror(errno)))); run: chmod 600 '\(url.path)'"
        }
        return "the credentials file \(url.path) could be read by other users (mode \(mode)); it is now readable by its owner only (600)"
    }

    /// Creates the file's folder (mode 0700) when missing, so the lock and the file can be made in it.
    func createFolder() throws(CredentialsFileError) {
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw .cannotWrite(path: url.path, reason: FileErrorText.reason(error))
        }
    }

    /// Fails unless a file can be made in the file's folder (as ``write(_:)`` makes one), which
    /// permissions, a read-only file system or a full disk can forbid, whoever runs the check.
    func checkFolderWritable() throws(CredentialsFileError) {
        let folder = url.deletingLastPathComponent()
        let probe = folder.appendingPathComponent(".\(url.lastPathComponent).\(ProcessInfo.processInfo.processIdentifier).check")
        guard FileManager.default.createFile(atPath: probe.path, contents: Data(), attributes: [.posixPermissions: 0o600]) else {
            throw .cannotWrite(path: url.path, reason: "cannot create a file in \(folder.path)")
        }
        try? FileManager.default.removeItem(at: probe)
    }

    /// Replaces the file with `contents` (mode 0600), in a folder ``createFolder()`` made.
    func write(_ contents: Contents) throws(CredentialsFileError) {
        let folder = url.deletingLastPathComponent()
        let data: Data
        do { data = try Self.encoder.encode(contents) } catch { throw .cannotWrite(path: url.path, reason: "\(error)") }
        let temporary = folder.appendingPathComponent(".\(url.lastPathComponent).\(ProcessInfo.processInfo.processIdentifier).\(UUID().uuidString)")
        guard FileManager.default.createFile(atPath: temporary.path, contents: data, attributes: [.posixPermissions: 0o600]) else {
            throw .cannotWrite(path: url.path, reason: "cannot create a file in \(folder.path)")
        }
        guard rename(temporary.path, url.path) == 0 else {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(at: temporary)
            throw .cannotWrite(path: url.path, reason: reason)
        }
    }

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        encoder.dateEncodingStrategy = .secondsSince1970
        return encoder
    }()

    private static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        return decoder
    }()
}

/// Why the credentials file could not be used. The messages name the file, never a token.
public enum CredentialsFileError: Error, Sendable, Hashable, CustomStringConvertible {
    case unreadable(path: String, reason: String)
    case corrupt(path: String, reason: String)
    case cannotWrite(path: String, reason: String)
    case cannotLock(FileLock.Failure)

    public var description: String {
        switch self {
        case let .unreadable(path, reason): "the credentials file \(path) cannot be read (\(reason))"
        case let .corrupt(path, reason): "the credentials file \(path) is not valid (\(reason)); it was left as it is: move it away to start over"
        case let .cannotWrite(path, reason): "cannot write the credentials file \(path) (\(reason))"
        case let .cannotLock(failure): "cannot lock the credentials file: \(failure)"
        }
    }
}

extension Credential {
    /// Dates that later arithmetic can use: after 1970 and before the year 10000.
    var isPlausible: Bool {
        let range = CalendarDate.plausibleSeconds
        return range.contains(issuedAt.timeIntervalSince1970) && range.contains(expiresAt.timeIntervalSince1970)
            || expiresAt == .distantFuture && range.contains(issuedAt.timeIntervalSince1970)
    }
}
