import Foundation
import MarqueeTestSupport
import MovieServer
import MovieServerSQLite
import Testing

/// The server's SQLite file holds password hashes and sessions: nobody but its owner reads it.
@Suite("The server's SQLite file")
struct ServerFileModeTests {
    static func mode(_ path: String) -> mode_t? {
        var status = stat()
        return stat(path, &status) == 0 ? status.st_mode & 0o777 : nil
    }

    @Test("a new server database is created 0600, and so are its write-ahead log and shared memory, whatever the umask")
    func createdPrivate() async throws {
        let path = TestFolders.temporary.appendingPathComponent("marquee-mode-\(UUID().uuidString).sqlite").path
        let previous = umask(0o022)
        defer { umask(previous) }
        let storage = try await SQLiteStorage(path: path)
        _ = try await storage.createAccount(StoredAccount(name: "alice", passwordHash: "h", createdAt: Date()))
        #expect(Self.mode(path) == 0o600)
        #expect(Self.mode(path + "-wal") == 0o600)
        #expect(Self.mode(path + "-shm") == 0o600)
        await storage.close()
        try? FileManager.default.removeItem(atPath: path)
        try? FileManager.default.removeItem(atPath: path + "-wal")
        try? FileManager.default.removeItem(atPath: path + "-shm")
    }
}
