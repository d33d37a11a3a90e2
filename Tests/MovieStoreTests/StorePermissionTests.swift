import Foundation
import MarqueeTestSupport
import Movies
import MovieStore
import Testing

/// The store holds watchlist notes: no other local user may read it.
@Suite("Store permissions")
struct StorePermissionTests {
    static func mode(_ path: String) -> Int? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return Int(status.st_mode & 0o777)
    }

    @Test("a new store and its WAL and shared-memory files are readable by their owner only, whatever the umask")
    func newStoreIsPrivate() async throws {
        let url = TestFolders.temporary.appendingPathComponent("store-\(UUID().uuidString)/movies.sqlite")
        let previous = umask(0o022)
        defer { umask(previous) }
        let store = try MovieStore(url: url)
        _ = try await store.recordWatchlistChange(movieID: 1, action: .add, note: "private", api: Fixtures.api)
        for suffix in ["", "-wal", "-shm"] {
            #expect(Self.mode(url.path + suffix) == 0o600, "\(suffix)")
        }
    }

    @Test("a store made readable by others before is made private when opened")
    func existingStoreIsMadePrivate() async throws {
        let url = TestFolders.temporary.appendingPathComponent("store-\(UUID().uuidString)/movies.sqlite")
        do {
            let store = try MovieStore(url: url)
            _ = try await store.recordWatchlistChange(movieID: 1, action: .add, note: "private", api: Fixtures.api)
        }
        for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: url.path + suffix) {
            #expect(chmod(url.path + suffix, 0o644) == 0)
        }
        let store = try MovieStore(url: url)
        #expect(try await store.watchlist(api: Fixtures.api).lines.count == 1)
        for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: url.path + suffix) {
            #expect(Self.mode(url.path + suffix) == 0o600, "\(suffix)")
        }
    }
}
