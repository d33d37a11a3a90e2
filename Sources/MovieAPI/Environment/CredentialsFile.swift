import Foundation
import Movies

/// The credentials file: one credential per API base URL, as JSON, readable by its owner only.
///
/// Writes replace the file atomically (a temporary file renamed over it), so a crash never
/// leaves half a file behind.
struct CredentialsFile: Sendable {
    struct Contents: Codable {
        var version = 1
        var credentials: [String: Credential] = [:]
    }

    /// Why the file could not be read.
    enum ReadError: Error, CustomStringConvertible {
        case unreadable(String)
        case corrupt(String)

        var description: String {
            switch self {
            case let .unreadable(reason): "it cannot be read (\(reason))"
            case let .corrupt(reason): "it is not a valid credentials file (\(reason))"
            }
        }
    }

    let url: URL

    /// The file's contents; empty when there is no file yet.
    func read() throws(ReadError) -> Contents {
        guard FileManager.default.fileExists(atPath: url.path) else { return Contents() }
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw .unreadable((error as NSError).localizedDescription)
        }
        do {
            return try Self.decoder.decode(Contents.self, from: data)
        } catch {
            throw .corrupt(data.isEmpty ? "it is empty" : "it is not the expected JSON")
        }
    }

    /// Replaces the file with `contents`, creating its folder (mode 0700) and the file (mode 0600).
    func write(_ contents: Contents) throws {
        let folder = url.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let data = try Self.encoder.encode(contents)
        let temporary = folder.appendingPathComponent(".\(url.lastPathComponent).\(ProcessInfo.processInfo.processIdentifier).\(UUID().uuidString)")
        guard FileManager.default.createFile(atPath: temporary.path, contents: data, attributes: [.posixPermissions: 0o600]) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: temporary.path])
        }
        guard rename(temporary.path, url.path) == 0 else {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(at: temporary)
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path, NSLocalizedDescriptionKey: reason])
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
